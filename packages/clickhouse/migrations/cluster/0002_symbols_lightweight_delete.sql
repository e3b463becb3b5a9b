-- Cluster variant of packages/clickhouse/migrations/0002: lightweight DELETE on the replicated
-- local table rebuilds the affected projection parts.
ALTER TABLE symbols_v1_local ON CLUSTER '{cluster}' MODIFY SETTING lightweight_mutation_projection_mode = 'rebuild';
