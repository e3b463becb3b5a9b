import { describe, expect, it } from '@jest/globals';
import { purgeStatement } from '../src/index.js';

describe('purgeStatement', () => {
  it('deletes from the table itself on a single server', () => {
    expect(purgeStatement('single', 'symbol_blocks_v2', "project_id = 'p'")).toBe(
      "ALTER TABLE symbol_blocks_v2 DELETE WHERE project_id = 'p'",
    );
  });

  it('deletes from the local table on every node of a cluster', () => {
    expect(purgeStatement('cluster', 'symbol_blocks_v2', "project_id = 'p'")).toBe(
      "ALTER TABLE symbol_blocks_v2_local ON CLUSTER '{cluster}' DELETE WHERE project_id = 'p'",
    );
  });
});
