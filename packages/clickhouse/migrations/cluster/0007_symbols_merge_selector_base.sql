-- Cluster variant of packages/clickhouse/migrations/0007: merges of the replicated local table
-- climb about 30 % fewer levels.
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' MODIFY SETTING merge_selector_base = 10;
