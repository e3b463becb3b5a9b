-- Cluster variant of packages/clickhouse/migrations/0009 (read it for why): the rows of the
-- former local tables join the new ones. ALTER ... ON CLUSTER on replicated tables runs on one
-- replica per shard, and the move replicates from there.

-- Only when a previous run got as far as dropping it; it then takes the Keeper path the
-- dropped table left free (a copy of symbols_v1_local's path would make it a replica of it).
CREATE TABLE IF NOT EXISTS symbols_v1_swap_local ON CLUSTER '{cluster}' AS symbols_v1_local
ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/symbols_v1_local', '{replica}')
ORDER BY (project_id, target_id, report_id, name, address, symbol_index);

DETACH TABLE IF EXISTS symbols_v1_swap_local ON CLUSTER '{cluster}' SYNC;
ATTACH TABLE IF NOT EXISTS symbols_v1_swap_local ON CLUSTER '{cluster}';

ALTER TABLE symbols_v1_swap_local ON CLUSTER '{cluster}' MOVE PARTITION tuple() TO TABLE symbols_v1_local;

DROP TABLE IF EXISTS symbols_v1_swap_local ON CLUSTER '{cluster}' SYNC;
