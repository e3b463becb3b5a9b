-- Cluster variant of packages/clickhouse/migrations/0008 (read it for why): every node's
-- symbols_v1_local becomes a ReplicatedMergeTree. The new table has a Keeper path of its own;
-- the Distributed symbols_v1 names its local table and follows the EXCHANGE.
CREATE TABLE IF NOT EXISTS symbols_v1_swap_local ON CLUSTER '{cluster}' AS symbols_v1_local
ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/symbols_v1_local_merge_tree', '{replica}')
ORDER BY (project_id, target_id, report_id, name, address, symbol_index)
SETTINGS lightweight_mutation_projection_mode = 'rebuild',
         merge_selector_base = 10;

EXCHANGE TABLES symbols_v1_local AND symbols_v1_swap_local ON CLUSTER '{cluster}';
