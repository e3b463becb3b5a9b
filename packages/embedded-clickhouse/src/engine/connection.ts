import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FILE_INSERT_MIN_BYTES,
  fileInputStatement,
  fileInsertStatement,
  insertWithSettings,
  readsInputTable,
} from './file-insert.js';
import type { ChdbNative, NativeConnection } from './native.js';
import type { Mutex } from './mutex.js';
import {
  isValidSettingName,
  mayChangeDatabase,
  mayChangeSessionState,
  quoteIdentifier,
  quoteString,
} from './sql.js';
import { ClickHouseException, fromEngineError } from '../errors.js';

/** One statement to run, already taken apart from its HTTP request. */
export interface EngineRequest {
  /** Statement text (for a raw insert: everything before the data). */
  sql: string;
  /** Insert payload sent after the statement (the HTTP body of an INSERT). */
  data?: Buffer;
  /** Raw `param_<name>` values, in the engine's escaped text form. */
  params: Record<string, string>;
  /** Settings for this request only. */
  settings: Record<string, string>;
  database: string;
  /** Output format when the statement has no FORMAT clause. */
  format: string;
}

export interface EngineResult {
  body: Buffer;
  elapsedSeconds: number;
  readRows: number;
  readBytes: number;
  writtenRows: number;
  writtenBytes: number;
}

/**
 * One chdb connection plus the bookkeeping that keeps requests independent.
 *
 * A chdb connection is a ClickHouse *session*: `SET` and `USE` stay in force for
 * every later statement on it. Over HTTP each request is its own session, so
 * anything a request changes is put back before the connection is reused.
 * This is the fix for the trap in chdb/connection, where a per-call
 * `insert_deduplication_token` outlived its insert and made later inserts
 * without a token count as duplicates of it (and vanish).
 */
/** An insert selecting from `input(...)` as a file read; such statements have no other way in. */
function inputInsertStatement(sql: string, path: string): string {
  const statement = fileInputStatement(sql, path);
  if (statement) return statement;
  throw ClickHouseException.of(
    'NOT_IMPLEMENTED',
    "This server reads an insert body through input() only as INSERT ... SELECT ... FROM input('<structure>') FORMAT <name>, with one input() call",
  );
}

export class EngineConnection {
  /** Set when the session state could not be restored; the pool replaces it. */
  broken = false;
  private currentDatabase: string | undefined = 'default';

  private constructor(
    private readonly native: ChdbNative,
    private readonly handle: NativeConnection,
    /** Every setting name the engine knows. */
    private readonly knownSettings: ReadonlySet<string>,
    /** Settings that differ from the engine defaults on a fresh connection. */
    private readonly baseline: ReadonlyMap<string, string>,
    private readonly paramLock: Mutex,
    /** Where large insert bodies are written for the engine to read (see file-insert.ts). */
    private readonly bodyDir: string,
  ) {}

  static async open(
    native: ChdbNative,
    path: string,
    args: readonly string[],
    paramLock: Mutex,
    bodyDir: string,
  ): Promise<EngineConnection> {
    let handle: NativeConnection | null;
    try {
      handle = native.CreateConnection(path, args);
    } catch (err) {
      throw new Error(
        `Cannot open the embedded ClickHouse at ${path}: ${(err as Error).message}. ` +
          'A data directory can be used by one process at a time; is another server running on it?',
        { cause: err },
      );
    }
    if (!handle) throw new Error(`Cannot open the embedded ClickHouse at ${path}`);
    try {
      const result = await native.QueryAsyncConnection(
        handle,
        'SELECT name, value, changed FROM system.settings',
        'JSONCompactEachRow',
      );
      const known = new Set<string>();
      const baseline = new Map<string, string>();
      for (const line of Buffer.from(result.bytes).toString('utf8').split('\n')) {
        if (!line) continue;
        const [name, value, changed] = JSON.parse(line) as [string, string, number | string];
        known.add(name);
        if (Number(changed) === 1) baseline.set(name, value);
      }
      return new EngineConnection(native, handle, known, baseline, paramLock, bodyDir);
    } catch (err) {
      native.CloseConnection(handle);
      throw err;
    }
  }

  close(): void {
    this.native.CloseConnection(this.handle);
  }

  async run(request: EngineRequest): Promise<EngineResult> {
    await this.useDatabase(request.database);
    const names = Object.keys(request.settings);
    for (const name of names) {
      if (!isValidSettingName(name)) {
        throw ClickHouseException.of('UNKNOWN_SETTING', `Unknown setting '${name}'`);
      }
    }
    // A plain insert carries its settings in its own SETTINGS clause: nothing to restore.
    if (names.length > 0 && request.data !== undefined && !mayChangeSessionState(request.sql)) {
      if (insertWithSettings(request.sql, request.settings))
        return this.execute(request, request.settings);
    }
    let applied = false;
    try {
      if (names.length > 0) {
        applied = true;
        await this.applySettings(request.settings);
      }
      return await this.execute(request);
    } finally {
      if (applied || mayChangeSessionState(request.sql)) {
        await this.restoreSession(names, request.sql);
      }
    }
  }

  /** `ownSettings`: the settings of a plain insert whose SQL already carries them. */
  private async execute(
    request: EngineRequest,
    ownSettings: Record<string, string> = {},
  ): Promise<EngineResult> {
    const { sql, data, params, format } = request;
    try {
      const bound = Object.keys(params).length > 0;
      if (data !== undefined) {
        const path = join(this.bodyDir, randomUUID());
        const fromFile = readsInputTable(sql)
          ? inputInsertStatement(sql, path)
          : !bound && data.length >= FILE_INSERT_MIN_BYTES
            ? fileInsertStatement(sql, path, ownSettings)
            : undefined;
        if (fromFile) return await this.insertFromFile(fromFile, path, data, format, params);
      }
      if (data !== undefined && !bound) {
        const statement = insertWithSettings(sql, ownSettings) ?? sql;
        const r = await this.native.InsertRawAsyncConnection(this.handle, statement, data, false);
        return {
          body: Buffer.alloc(0),
          elapsedSeconds: r.elapsed,
          readRows: r.rowsWritten,
          readBytes: r.bytesWritten,
          writtenRows: r.rowsWritten,
          writtenBytes: r.bytesWritten,
        };
      }
      const text = data === undefined ? sql : `${sql}\n${data.toString('utf8')}`;
      const r = await this.query(text, format, params);
      const body = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
      return {
        body,
        elapsedSeconds: r.elapsed,
        readRows: r.rowsRead,
        readBytes: r.bytesRead,
        writtenRows: 0,
        writtenBytes: 0,
      };
    } catch (err) {
      throw fromEngineError(err);
    }
  }

  /** Runs `statement`, which reads `data` from `path`; the file is removed afterwards. */
  private async insertFromFile(
    statement: string,
    path: string,
    data: Buffer,
    format: string,
    params: Record<string, string>,
  ): Promise<EngineResult> {
    await writeFile(path, data);
    try {
      const r = await this.query(statement, format, params);
      return {
        body: Buffer.alloc(0),
        elapsedSeconds: r.elapsed,
        readRows: r.rowsRead,
        readBytes: r.bytesRead,
        // Every row read from the file is a row inserted into the table.
        writtenRows: r.rowsRead,
        writtenBytes: r.bytesRead,
      };
    } finally {
      await rm(path, { force: true });
    }
  }

  private query(text: string, format: string, params: Record<string, string>) {
    return Object.keys(params).length === 0
      ? this.native.QueryAsyncConnection(this.handle, text, format)
      : // The addon's parameter binding is not isolated between connections
        // (parameters are set and cleared around each call in shared engine
        // state), so parameterised statements run one at a time process-wide.
        this.paramLock.runExclusive(() =>
          this.native.QueryAsyncConnection(this.handle, text, format, params),
        );
  }

  private async exec(sql: string): Promise<void> {
    try {
      await this.native.QueryAsyncConnection(this.handle, sql, 'TabSeparated');
    } catch (err) {
      throw fromEngineError(err);
    }
  }

  private async useDatabase(database: string): Promise<void> {
    if (this.currentDatabase === database) return;
    await this.exec(`USE ${quoteIdentifier(database)}`);
    this.currentDatabase = database;
  }

  private async applySettings(settings: Record<string, string>): Promise<void> {
    const assignments = Object.entries(settings).map(([n, v]) => `${n} = ${quoteString(v)}`);
    await this.exec(`SET ${assignments.join(', ')}`);
  }

  /**
   * Puts every setting back to what a fresh connection has. Settings this
   * request passed are reset directly; when the statement itself might have
   * run SET (or used a setting name we do not know, e.g. an alias), the full
   * list of changed settings is compared against the baseline instead.
   */
  private async restoreSession(names: string[], sql: string): Promise<void> {
    if (mayChangeDatabase(sql)) this.currentDatabase = undefined;
    try {
      const allKnown = names.every((name) => this.knownSettings.has(name));
      if (allKnown && !mayChangeSessionState(sql)) {
        if (names.length > 0)
          await this.exec(`SET ${names.map((n) => this.resetTo(n)).join(', ')}`);
        return;
      }
      const result = await this.native.QueryAsyncConnection(
        this.handle,
        'SELECT name, value FROM system.settings WHERE changed',
        'JSONCompactEachRow',
      );
      const drift: string[] = [];
      const changedNow = new Set<string>();
      for (const line of Buffer.from(result.bytes).toString('utf8').split('\n')) {
        if (!line) continue;
        const [name, value] = JSON.parse(line) as [string, string];
        changedNow.add(name);
        if (this.baseline.get(name) !== value) drift.push(name);
      }
      for (const name of this.baseline.keys()) {
        if (!changedNow.has(name)) drift.push(name);
      }
      if (drift.length > 0) await this.exec(`SET ${drift.map((n) => this.resetTo(n)).join(', ')}`);
    } catch {
      // The session is in an unknown state (e.g. a request set `readonly`, which
      // forbids changing it back); never hand it to another request.
      this.broken = true;
    }
  }

  private resetTo(name: string): string {
    const value = this.baseline.get(name);
    return value === undefined ? `${name} = DEFAULT` : `${name} = ${quoteString(value)}`;
  }
}
