-- Cluster variant of packages/clickhouse/migrations/0006: the narrower `symbol_sizes`
-- projection replaces `symbol_history` on the replicated local table.
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' ADD PROJECTION IF NOT EXISTS symbol_sizes
(
    SELECT project_id, target_id, name, report_id, ingest_version, size
    ORDER BY project_id, target_id, name, report_id
);
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' MATERIALIZE PROJECTION symbol_sizes;
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' DROP PROJECTION IF EXISTS symbol_history;
