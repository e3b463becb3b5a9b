-- The worker deletes the rows of an overwritten report version once the new version is
-- readable. Lightweight DELETE on a table with projections needs to know what to do with them:
-- rebuild the affected projection parts.
ALTER TABLE symbols_v1 MODIFY SETTING lightweight_mutation_projection_mode = 'rebuild';
