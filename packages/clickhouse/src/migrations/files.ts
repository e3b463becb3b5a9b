import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  /** File name, e.g. 0001_initial.sql. */
  file: string;
  /** sha256 of the file with line endings normalised. */
  checksum: string;
  statements: string[];
}

/**
 * The package's migrations/ folder. This module sits two levels below the
 * package root both as source (src/migrations) and built (dist/migrations).
 */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

const FILE_NAME = /^(\d{4,})_([a-z0-9_]+)\.sql$/;

/** Reads NNNN_name.sql files in version order; rejects gaps in naming and duplicates. */
export async function loadMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    throw new Error(
      `Cannot read the ClickHouse migrations folder ${dir}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  const migrations: Migration[] = [];
  for (const file of entries.filter((f) => f.endsWith('.sql')).sort()) {
    const match = FILE_NAME.exec(file);
    if (!match) {
      throw new Error(`Migration file ${join(dir, file)} is not named NNNN_name.sql (lower case)`);
    }
    const text = (await readFile(join(dir, file), 'utf8')).replace(/\r\n/g, '\n');
    const statements = splitStatements(text);
    if (statements.length === 0) throw new Error(`Migration ${file} contains no statement`);
    migrations.push({
      version: Number(match[1]),
      name: match[2]!,
      file,
      checksum: createHash('sha256').update(text).digest('hex'),
      statements,
    });
  }
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version === migrations[i - 1]!.version) {
      throw new Error(
        `Two migrations share version ${migrations[i]!.version}: ${migrations[i - 1]!.file} and ${migrations[i]!.file}`,
      );
    }
  }
  return migrations;
}

/**
 * Cuts a file into statements at `;` (ClickHouse's HTTP interface runs one
 * statement per request). Semicolons inside string literals, quoted
 * identifiers and comments do not count; blocks holding only comments are
 * dropped.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const statement = text.slice(start, end).trim();
    if (stripComments(statement) !== '') statements.push(statement);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      i = skipQuoted(text, i, c);
    } else if (c === '-' && text[i + 1] === '-') {
      i = lineEnd(text, i);
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ';') {
      push(i);
      start = ++i;
    } else {
      i++;
    }
  }
  push(text.length);
  return statements;
}

/** Index just past a quoted literal or identifier starting at `open`. */
function skipQuoted(text: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (text[i + 1] === quote)
        i += 2; // a doubled quote stands for itself
      else return i + 1;
    } else {
      i++;
    }
  }
  return i;
}

function lineEnd(text: string, from: number): number {
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol + 1;
}

function stripComments(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      i = lineEnd(sql, i);
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.trim();
}
