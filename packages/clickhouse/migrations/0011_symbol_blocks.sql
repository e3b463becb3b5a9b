-- Storage proportional to change (docs/query.md). Symbols are stored as content-addressed
-- blocks: each block (a run of one section's symbols, addresses relative to its first) is one
-- set of rows per target, written once however many reports hold it. Which blocks a report
-- holds, and where, is its version record in Postgres; a typical commit adds a few blocks.
--
-- The former per-report tables are dropped: Postgres keeps every upload, and the Postgres
-- migration of the same release marks every report for ingestion again (docs/operations.md,
-- "Upgrading"). This file is the only source of the schema: the cluster form (Replicated local
-- tables behind Distributed ones) is generated from it.

CREATE TABLE IF NOT EXISTS symbol_blocks_v2
(
    project_id  String,
    target_id   String,
    -- 128 bits of SHA-256 over the block's canonical bytes, hex.
    block_hash  String,
    -- Position of the symbol in its block.
    ordinal     UInt32,
    name        String,
    -- Demangled full name; '' when the upload has none.
    full_name   String,
    -- Address minus the block's base address (the report's record holds the base).
    rel         UInt64,
    size        UInt64,
    type        LowCardinality(String),
    binding     LowCardinality(String),
    visibility  LowCardinality(String),
    section     LowCardinality(String),
    source_file String,
    source_line UInt32,
    archive     String,
    object_file String,

    -- Symbol history: the blocks holding one name, without reading the target's blocks.
    PROJECTION by_name
    (
        SELECT project_id, target_id, name, block_hash, ordinal, size
        ORDER BY project_id, target_id, name, block_hash, ordinal
    ),
    -- File history: the blocks holding one source file's symbols.
    PROJECTION by_file
    (
        SELECT project_id, target_id, source_file, block_hash, ordinal, size
        ORDER BY project_id, target_id, source_file, block_hash, ordinal
    )
)
-- A block's rows are immutable. Two jobs can only write one upload's blocks twice under one
-- deduplication token; should rows ever be doubled anyway, merges collapse them and every read
-- keeps one row per (block_hash, ordinal).
ENGINE = ReplacingMergeTree
ORDER BY (project_id, target_id, block_hash, ordinal)
-- shard by: cityHash64(project_id, target_id)
SETTINGS non_replicated_deduplication_window = 1000,
         deduplicate_merge_projection_mode = 'rebuild',
         lightweight_mutation_projection_mode = 'rebuild';

DROP VIEW IF EXISTS file_sizes_mv_v1;
DROP VIEW IF EXISTS section_bytes_mv_v1;
DROP TABLE IF EXISTS file_sizes_v1;
DROP TABLE IF EXISTS section_bytes_v1;
DROP TABLE IF EXISTS symbols_v1;
DROP TABLE IF EXISTS sections_v1;
DROP TABLE IF EXISTS regions_v1;
