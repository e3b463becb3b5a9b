-- Cluster variant of packages/clickhouse/migrations/0008 (read it for why): every node's
-- symbols_v1_local becomes a ReplicatedMergeTree. The new table has a Keeper path of its own;
-- the Distributed symbols_v1 names its local table and follows the EXCHANGE.
CREATE TABLE IF NOT EXISTS symbols_v1_swap_local ON CLUSTER '{cluster}'
(
    project_id     String,
    target_id      String,
    report_id      String,
    commit_sha     String,
    commit_time    DateTime64(3, 'UTC'),
    symbol_index   UInt32,
    name           String,
    full_name      String,
    address        UInt64,
    size           UInt64,
    type           LowCardinality(String),
    binding        LowCardinality(String),
    visibility     LowCardinality(String),
    section        LowCardinality(String),
    region         LowCardinality(String),
    source_file    String,
    source_line    UInt32,
    archive        String,
    object_file    String,
    ingest_version UInt64,
    name_hash      UInt64 MATERIALIZED cityHash64(name),
    origin_hash    UInt64 MATERIALIZED cityHash64(size, section, region, source_file),

    PROJECTION symbol_sizes
    (
        SELECT project_id, target_id, name, report_id, ingest_version, size
        ORDER BY project_id, target_id, name, report_id
    )
)
ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/symbols_v1_local_merge_tree', '{replica}')
ORDER BY (project_id, target_id, report_id, name, address, symbol_index)
SETTINGS lightweight_mutation_projection_mode = 'rebuild',
         merge_selector_base = 10;

EXCHANGE TABLES symbols_v1_local AND symbols_v1_swap_local ON CLUSTER '{cluster}';
