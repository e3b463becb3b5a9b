import { describe, expect, it } from '@jest/globals';
import { loadMigrations, splitStatements } from '../src/index.js';

describe('migration files', () => {
  it('splits statements at semicolons outside literals and drops comment-only blocks', () => {
    const sql = `-- header comment
CREATE TABLE a (s String DEFAULT 'x;y') ENGINE = Memory;

/* block */
-- only a comment;
INSERT INTO a VALUES ('z');
`;
    expect(splitStatements(sql)).toEqual([
      "-- header comment\nCREATE TABLE a (s String DEFAULT 'x;y') ENGINE = Memory",
      "/* block */\n-- only a comment;\nINSERT INTO a VALUES ('z')",
    ]);
  });

  it('ignores semicolons in quoted names, escaped quotes and block comments', () => {
    const sql = "SELECT 'it\\'s; fine', `a;b`, \"c;d\" /* x; y */ FROM t;SELECT 2;\n-- trailing;\n";
    expect(splitStatements(sql)).toEqual([
      "SELECT 'it\\'s; fine', `a;b`, \"c;d\" /* x; y */ FROM t",
      'SELECT 2',
    ]);
  });

  it('finds the packaged migrations in version order with stable checksums', async () => {
    const migrations = await loadMigrations();
    expect(migrations[0]).toMatchObject({ version: 1, name: 'initial', file: '0001_initial.sql' });
    expect(migrations.map((m) => m.version)).toEqual(
      [...migrations.map((m) => m.version)].sort((a, b) => a - b),
    );
    expect(migrations[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(migrations[0]!.statements).toHaveLength(3);
  });
});
