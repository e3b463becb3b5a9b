-- Two-report diffs (query service, docs/query.md) first look for the symbol names whose rows
-- differ between the reports. Hashing each row's name and origin (size, section, region,
-- source file) at insert time lets that pass group two UInt64 columns instead of reading the
-- strings; the rows of the few differing names are then read in full.
ALTER TABLE symbols_v1 ADD COLUMN IF NOT EXISTS name_hash UInt64 MATERIALIZED cityHash64(name);
ALTER TABLE symbols_v1 ADD COLUMN IF NOT EXISTS origin_hash UInt64
    MATERIALIZED cityHash64(size, section, region, source_file);
-- Rows written before this migration get the columns stored too (a mutation, in the background).
ALTER TABLE symbols_v1 MATERIALIZE COLUMN name_hash;
ALTER TABLE symbols_v1 MATERIALIZE COLUMN origin_hash;

-- Symbol bytes per section and region of each report version: the part of a diff's section
-- padding that belongs to unchanged symbols, read as a handful of rows instead of summing
-- every symbol of both reports. Filled like file_sizes_v1 (see 0003).
CREATE TABLE IF NOT EXISTS section_bytes_v1
(
    project_id     String,
    target_id      String,
    report_id      String,
    ingest_version UInt64,
    section        LowCardinality(String),
    region         LowCardinality(String),
    size           UInt64
)
ENGINE = SummingMergeTree(size)
ORDER BY (project_id, target_id, report_id, ingest_version, section, region);

CREATE MATERIALIZED VIEW IF NOT EXISTS section_bytes_mv_v1 TO section_bytes_v1 AS
SELECT project_id, target_id, report_id, ingest_version, section, region, sum(size) AS size
FROM symbols_v1
GROUP BY project_id, target_id, report_id, ingest_version, section, region;

-- Reports ingested before this migration. Re-running adds only versions not yet present.
INSERT INTO section_bytes_v1
SELECT project_id, target_id, report_id, ingest_version, section, region, sum(size) AS size
FROM symbols_v1
WHERE (report_id, ingest_version) NOT IN (SELECT DISTINCT report_id, ingest_version FROM section_bytes_v1)
GROUP BY project_id, target_id, report_id, ingest_version, section, region;
