-- symbols_v1 becomes a plain MergeTree. Nothing needs ReplacingMergeTree's collapsing: readers
-- take the exact version Postgres records as ingested (never FINAL), the worker deletes rows of
-- superseded versions itself, and a retried batch is skipped by its deduplication token. The
-- collapsing cost CPU on every insert, and a projection on a ReplacingMergeTree is rebuilt
-- (sorted again) on every merge instead of merged: about a sixth of ClickHouse's CPU per symbol
-- row (docs/benchmarks.md).
--
-- A table's engine cannot be altered, so an empty MergeTree with the same columns (materialized
-- ones and the projection included, copied by AS) and key takes the table's name in one atomic
-- EXCHANGE: from then on every insert, of this release's workers and of those still running
-- the previous one, lands in it. 0009 moves the stored rows over. EXCHANGE is the one statement
-- here that is not idempotent, hence a file of its own: it is recorded as applied the moment it
-- has run.
CREATE TABLE IF NOT EXISTS symbols_v1_swap AS symbols_v1
ENGINE = MergeTree()
ORDER BY (project_id, target_id, report_id, name, address, symbol_index)
SETTINGS non_replicated_deduplication_window = 1000,
         lightweight_mutation_projection_mode = 'rebuild',
         merge_selector_base = 10;

EXCHANGE TABLES symbols_v1 AND symbols_v1_swap;
