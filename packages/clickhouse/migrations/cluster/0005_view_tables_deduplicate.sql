-- Mirrors the single-node 0005, which gives file_sizes_v1 and section_bytes_v1 a
-- deduplication window so a retried insert is not summed twice by the materialized views.
-- Replicated tables keep such a window by default (replicated_deduplication_window), so on a
-- cluster there is nothing to change; this statement only records the version.
SELECT 1;
