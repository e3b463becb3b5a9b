-- Symbol history reads one name's size in every report of a target. `symbol_history` kept 11
-- columns for it, sorted by commit time; the read needs 6 and no order within a name. Every
-- insert writes the projection and, on a ReplacingMergeTree, every merge sorts it again
-- (`deduplicate_merge_projection_mode = 'rebuild'`): the narrower `symbol_sizes` costs a quarter
-- less ClickHouse CPU per inserted report (docs/benchmarks.md).
-- Parts written before are given the new projection by a background mutation; until it reaches
-- a part, reads of that part scan it instead, with the same result.
ALTER TABLE symbols_v1 ADD PROJECTION IF NOT EXISTS symbol_sizes
(
    SELECT project_id, target_id, name, report_id, ingest_version, size
    ORDER BY project_id, target_id, name, report_id
);
ALTER TABLE symbols_v1 MATERIALIZE PROJECTION symbol_sizes;
ALTER TABLE symbols_v1 DROP PROJECTION IF EXISTS symbol_history;
