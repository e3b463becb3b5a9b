-- Per-report memory data, written by the ingest worker and read by the query service.
-- Ids are UUID text as in Postgres. Every table is a ReplacingMergeTree over
-- `ingest_version`: re-ingesting a report (an overwrite of the same target x commit) writes
-- rows with a higher version, and readers take the newest version of each report.
-- `non_replicated_deduplication_window` makes `insert_deduplication_token` effective, so a
-- retried ingest job never doubles rows.

-- One row per symbol per report. Ordered for two-report diffs: both reports of a diff are
-- contiguous ranges of (project_id, target_id, report_id), already sorted by name.
CREATE TABLE IF NOT EXISTS symbols_v1
(
    project_id     String,
    target_id      String,
    report_id      String,
    commit_sha     String,
    commit_time    DateTime64(3, 'UTC'),
    -- Position in the report's symbol list: keeps the key unique when a report holds the same
    -- name at the same address twice (e.g. FILE symbols of two files with one basename).
    symbol_index   UInt32,
    name           String,
    -- Demangled full name (namespaces, parameters); '' when it adds nothing to `name`.
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

    -- Symbol history: one symbol of one target across commits, without scanning every report.
    PROJECTION symbol_history
    (
        SELECT project_id, target_id, name, commit_time, commit_sha, report_id, address, size,
               section, region, ingest_version
        ORDER BY project_id, target_id, name, commit_time
    )
)
ENGINE = ReplacingMergeTree(ingest_version)
ORDER BY (project_id, target_id, report_id, name, address, symbol_index)
SETTINGS non_replicated_deduplication_window = 1000,
         deduplicate_merge_projection_mode = 'rebuild';

-- One row per section entry per report. A section with a separate load address appears twice
-- (run and load copy), told apart by `address`. Ordered by commit time for series.
CREATE TABLE IF NOT EXISTS sections_v1
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
    -- code | data | rodata
    type           LowCardinality(String),
    ingest_version UInt64
)
ENGINE = ReplacingMergeTree(ingest_version)
ORDER BY (project_id, target_id, commit_time, report_id, region, name, address)
SETTINGS non_replicated_deduplication_window = 1000;

-- One row per memory region per report, ordered by commit time for series.
CREATE TABLE IF NOT EXISTS regions_v1
(
    project_id     String,
    target_id      String,
    report_id      String,
    commit_sha     String,
    commit_time    DateTime64(3, 'UTC'),
    name           LowCardinality(String),
    -- UNKNOWN for linker-script regions; FLASH / RAM for inferred ones; rx / rw for defaults.
    type           LowCardinality(String),
    address        UInt64,
    -- LENGTH from the linker script (or the configured limit); 0 when unknown.
    limit_size     UInt64,
    used_size      UInt64,
    ingest_version UInt64
)
ENGINE = ReplacingMergeTree(ingest_version)
ORDER BY (project_id, target_id, commit_time, report_id, name)
SETTINGS non_replicated_deduplication_window = 1000;
