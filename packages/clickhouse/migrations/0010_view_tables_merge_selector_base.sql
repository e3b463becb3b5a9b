-- The views' tables grow with every report as symbols_v1 does (file_sizes_v1 by about one row
-- per source file, around a tenth of the symbol rows), and their merges climb the same levels.
-- The base of 10 that 0007 gave symbols_v1 rewrites each of their rows about 30 % fewer times.
ALTER TABLE file_sizes_v1 MODIFY SETTING merge_selector_base = 10;
ALTER TABLE section_bytes_v1 MODIFY SETTING merge_selector_base = 10;
