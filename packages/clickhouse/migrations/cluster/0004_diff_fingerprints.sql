-- Cluster variant of packages/clickhouse/migrations/0004_diff_fingerprints.sql. The hashes are
-- computed where rows are stored (each node's local symbols table); the Distributed table
-- declares them the same way so reads through it see the columns.
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}'
    ADD COLUMN IF NOT EXISTS name_hash UInt64 MATERIALIZED cityHash64(name);
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}'
    ADD COLUMN IF NOT EXISTS origin_hash UInt64 MATERIALIZED cityHash64(size, section, region, source_file);
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' MATERIALIZE COLUMN name_hash;
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' MATERIALIZE COLUMN origin_hash;
ALTER TABLE symbols_v1 ON CLUSTER '{cluster}'
    ADD COLUMN IF NOT EXISTS name_hash UInt64 MATERIALIZED cityHash64(name);
ALTER TABLE symbols_v1 ON CLUSTER '{cluster}'
    ADD COLUMN IF NOT EXISTS origin_hash UInt64 MATERIALIZED cityHash64(size, section, region, source_file);

CREATE TABLE IF NOT EXISTS section_bytes_v1_local ON CLUSTER '{cluster}'
(
    project_id     String,
    target_id      String,
    report_id      String,
    ingest_version UInt64,
    section        LowCardinality(String),
    region         LowCardinality(String),
    size           UInt64
)
ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/{database}/section_bytes_v1_local', '{replica}', size)
ORDER BY (project_id, target_id, report_id, ingest_version, section, region);

CREATE TABLE IF NOT EXISTS section_bytes_v1 ON CLUSTER '{cluster}' AS section_bytes_v1_local
ENGINE = Distributed('{cluster}', currentDatabase(), section_bytes_v1_local, cityHash64(project_id));

CREATE MATERIALIZED VIEW IF NOT EXISTS section_bytes_mv_v1 ON CLUSTER '{cluster}' TO section_bytes_v1_local AS
SELECT project_id, target_id, report_id, ingest_version, section, region, sum(size) AS size
FROM symbols_v1_local
GROUP BY project_id, target_id, report_id, ingest_version, section, region;

-- The single-node file's backfill INSERT is left out, as in 0003: a cluster that already held
-- reports runs it once per shard against the _local tables.
