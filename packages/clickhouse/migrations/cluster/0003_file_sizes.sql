-- Cluster variant of packages/clickhouse/migrations/0003_file_sizes.sql. The materialized view
-- sits on each node's local symbols table, so it sees exactly the rows that reach that shard
-- (and a deduplicated block is skipped there as on a single node).
CREATE TABLE IF NOT EXISTS file_sizes_v1_local ON CLUSTER '{cluster}'
(
    project_id     String,
    target_id      String,
    source_file    String,
    report_id      String,
    ingest_version UInt64,
    size           UInt64,
    symbols        UInt64
)
ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/{database}/file_sizes_v1_local', '{replica}', (size, symbols))
ORDER BY (project_id, target_id, source_file, report_id, ingest_version);

CREATE TABLE IF NOT EXISTS file_sizes_v1 ON CLUSTER '{cluster}' AS file_sizes_v1_local
ENGINE = Distributed('{cluster}', currentDatabase(), file_sizes_v1_local, cityHash64(project_id));

CREATE MATERIALIZED VIEW IF NOT EXISTS file_sizes_mv_v1 ON CLUSTER '{cluster}' TO file_sizes_v1_local AS
SELECT project_id, target_id, source_file, report_id, ingest_version,
       sum(size) AS size, count() AS symbols
FROM symbols_v1_local
GROUP BY project_id, target_id, source_file, report_id, ingest_version;

-- The single-node file's backfill INSERT is left out: a cluster starts from these migrations
-- with empty tables. A cluster that already held reports runs that INSERT once per shard,
-- against the _local tables.
