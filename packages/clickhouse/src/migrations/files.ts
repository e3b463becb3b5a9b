import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClickHouseTopology } from '../topology.js';
import { clusterStatements } from './cluster.js';
import { splitStatements } from './sql-text.js';

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

/**
 * Reads NNNN_name.sql files in version order; rejects gaps in naming and duplicates. For a
 * cluster, each migration takes its cluster form: the file of the same name in `cluster/`
 * where one was written by hand (migrations before the forms were generated, kept as they were
 * applied), else the statements generated from the single-node file (clusterStatements), with
 * the single-node file's checksum.
 */
export async function loadMigrations(
  dir: string = DEFAULT_MIGRATIONS_DIR,
  topology: ClickHouseTopology = 'single',
): Promise<Migration[]> {
  const single = await readMigrationFiles(dir);
  if (topology === 'single') return single;
  const written = new Map(
    (await readMigrationFiles(join(dir, 'cluster'), true)).map((m) => [m.file, m]),
  );
  return single.map(
    (m) =>
      written.get(m.file) ?? {
        ...m,
        statements: m.statements.flatMap((statement) => clusterStatements(m.file, statement)),
      },
  );
}

async function readMigrationFiles(dir: string, optional = false): Promise<Migration[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if (optional && (err as NodeJS.ErrnoException).code === 'ENOENT') return [];
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
