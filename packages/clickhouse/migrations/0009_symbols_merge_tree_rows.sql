-- The stored rows of the former symbols_v1 (now symbols_v1_swap, see 0008) join the new table.
-- Every statement is idempotent, so a run interrupted anywhere is completed by the next.
--
-- Symbols read as missing from the EXCHANGE until the MOVE, about a second. The materialized
-- views file_sizes_mv_v1 and section_bytes_mv_v1 name their source table and follow the name, and
-- MOVE PARTITION moves parts without passing them to the views, so nothing is counted twice.

-- Created again only when a previous run got as far as dropping it: then this run moves nothing.
CREATE TABLE IF NOT EXISTS symbols_v1_swap AS symbols_v1;

-- An insert that began before the EXCHANGE writes into the former table. DETACH ... SYNC waits
-- for every query still using it, so those inserts are stored before the rows move.
DETACH TABLE IF EXISTS symbols_v1_swap SYNC;
ATTACH TABLE IF NOT EXISTS symbols_v1_swap;

-- Parts move as they are (a rename on disk, projection included): no data is rewritten.
ALTER TABLE symbols_v1_swap MOVE PARTITION tuple() TO TABLE symbols_v1;

DROP TABLE IF EXISTS symbols_v1_swap SYNC;
