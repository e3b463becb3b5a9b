-- symbols_v1 becomes a plain MergeTree. Nothing needs ReplacingMergeTree's collapsing: readers
-- take the exact version Postgres records as ingested (never FINAL), the worker deletes rows of
-- superseded versions itself, and a retried batch is skipped by its deduplication token. The
-- collapsing cost CPU on every insert, and a projection on a ReplacingMergeTree is rebuilt
-- (sorted again) on every merge instead of merged: about a quarter of ClickHouse's CPU per
-- ingested report (docs/benchmarks.md).
--
-- A table's engine cannot be altered, so an empty MergeTree with the same columns, key and
-- projection takes the table's name in one atomic EXCHANGE: from then on every insert, of this
-- release's workers and of those still running the previous one, lands in it. 0009 moves the
-- stored rows over. EXCHANGE is the one statement here that is not idempotent, hence a file of
-- its own: it is recorded as applied the moment it has run.
CREATE TABLE IF NOT EXISTS symbols_v1_swap
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
ENGINE = MergeTree()
ORDER BY (project_id, target_id, report_id, name, address, symbol_index)
SETTINGS non_replicated_deduplication_window = 1000,
         lightweight_mutation_projection_mode = 'rebuild',
         merge_selector_base = 10;

EXCHANGE TABLES symbols_v1 AND symbols_v1_swap;
