-- A retried insert into symbols_v1 with the same insert_deduplication_token is skipped by
-- symbols_v1 itself, but ClickHouse still pushes the block to the materialized views and lets
-- each view's target table decide (deduplicate_blocks_in_dependent_materialized_views, on
-- since ClickHouse 24). Without a deduplication window of their own, file_sizes_v1 and
-- section_bytes_v1 summed a retried report twice. With one, the view's block carries a token
-- derived from the insert's and is skipped the same way.
ALTER TABLE file_sizes_v1 MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE section_bytes_v1 MODIFY SETTING non_replicated_deduplication_window = 1000;
