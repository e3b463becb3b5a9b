-- Cluster variant of packages/clickhouse/migrations/0001_initial.sql (same columns, keys and
-- projection; tests/deploy/clickhouse-cluster.test.ts keeps them in step). Used when
-- CLICKHOUSE_TOPOLOGY=cluster; see docs/operations.md "ClickHouse at scale".
--
-- Each table is a `<name>_local` ReplicatedReplacingMergeTree on every node, plus a Distributed
-- table under the name the services use. Rows are sharded by project: every row of one report
-- lands on one shard, so ReplacingMergeTree versions, FINAL and two-report diffs stay
-- shard-local. Replicated tables deduplicate by `insert_deduplication_token` on their own
-- (replicated_deduplication_window), so retried ingest jobs never double rows.
-- The server config supplies the macros {cluster}, {shard} and {replica} (deploy/clickhouse).

CREATE TABLE IF NOT EXISTS symbols_v1_local ON CLUSTER '{cluster}'
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

    PROJECTION symbol_history
    (
        SELECT project_id, target_id, name, commit_time, commit_sha, report_id, address, size,
               section, region, ingest_version
        ORDER BY project_id, target_id, name, commit_time
    )
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/symbols_v1_local', '{replica}', ingest_version)
ORDER BY (project_id, target_id, report_id, name, address, symbol_index)
SETTINGS deduplicate_merge_projection_mode = 'rebuild';

CREATE TABLE IF NOT EXISTS symbols_v1 ON CLUSTER '{cluster}' AS symbols_v1_local
ENGINE = Distributed('{cluster}', currentDatabase(), symbols_v1_local, cityHash64(project_id));

CREATE TABLE IF NOT EXISTS sections_v1_local ON CLUSTER '{cluster}'
(
    project_id     String,
    target_id      String,
    report_id      String,
    commit_sha     String,
    commit_time    DateTime64(3, 'UTC'),
    region         LowCardinality(String),
    name           LowCardinality(String),
    address        UInt64,
    size           UInt64,
    type           LowCardinality(String),
    ingest_version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/sections_v1_local', '{replica}', ingest_version)
ORDER BY (project_id, target_id, commit_time, report_id, region, name, address);

CREATE TABLE IF NOT EXISTS sections_v1 ON CLUSTER '{cluster}' AS sections_v1_local
ENGINE = Distributed('{cluster}', currentDatabase(), sections_v1_local, cityHash64(project_id));

CREATE TABLE IF NOT EXISTS regions_v1_local ON CLUSTER '{cluster}'
(
    project_id     String,
    target_id      String,
    report_id      String,
    commit_sha     String,
    commit_time    DateTime64(3, 'UTC'),
    name           LowCardinality(String),
    type           LowCardinality(String),
    address        UInt64,
    limit_size     UInt64,
    used_size      UInt64,
    ingest_version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/regions_v1_local', '{replica}', ingest_version)
ORDER BY (project_id, target_id, commit_time, report_id, name);

CREATE TABLE IF NOT EXISTS regions_v1 ON CLUSTER '{cluster}' AS regions_v1_local
ENGINE = Distributed('{cluster}', currentDatabase(), regions_v1_local, cityHash64(project_id));
