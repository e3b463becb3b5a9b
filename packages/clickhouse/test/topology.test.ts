import { describe, expect, it } from '@jest/globals';
import { deleteStatement } from '../src/index.js';

describe('deleteStatement', () => {
  it('deletes from the table itself on a single server', () => {
    expect(deleteStatement('single', 'symbols_v1', "report_id = 'r'")).toBe(
      "DELETE FROM symbols_v1 WHERE report_id = 'r'",
    );
  });

  it("on a cluster, deletes from every node's local table (Distributed tables take no DELETE)", () => {
    expect(deleteStatement('cluster', 'symbols_v1', "report_id = 'r'")).toBe(
      "DELETE FROM symbols_v1_local ON CLUSTER '{cluster}' WHERE report_id = 'r'",
    );
  });
});
