-- Bytes per source file per report version, for "one file across commits" reads: the
-- query service's file history reads one (project, target, source_file) range here instead of
-- scanning every symbol of every report. Filled by a materialized view on symbols_v1 inserts,
-- so an insert deduplicated by `insert_deduplication_token` is not counted twice (a block
-- skipped by the source table is not pushed to its views). Readers sum per (report_id,
-- ingest_version) — parts may not be merged yet — and keep the version Postgres records as
-- ingested; rows of older versions are simply never read.
CREATE TABLE IF NOT EXISTS file_sizes_v1
(
    project_id     String,
    target_id      String,
    source_file    String,
    report_id      String,
    ingest_version UInt64,
    size           UInt64,
    symbols        UInt64
)
ENGINE = SummingMergeTree((size, symbols))
ORDER BY (project_id, target_id, source_file, report_id, ingest_version);

CREATE MATERIALIZED VIEW IF NOT EXISTS file_sizes_mv_v1 TO file_sizes_v1 AS
SELECT project_id, target_id, source_file, report_id, ingest_version,
       sum(size) AS size, count() AS symbols
FROM symbols_v1
GROUP BY project_id, target_id, source_file, report_id, ingest_version;

-- Reports ingested before this migration. Re-running adds only versions not yet present.
INSERT INTO file_sizes_v1
SELECT project_id, target_id, source_file, report_id, ingest_version,
       sum(size) AS size, count() AS symbols
FROM symbols_v1
WHERE (report_id, ingest_version) NOT IN (SELECT DISTINCT report_id, ingest_version FROM file_sizes_v1)
GROUP BY project_id, target_id, source_file, report_id, ingest_version;
