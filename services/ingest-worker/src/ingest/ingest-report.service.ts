import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { MemoryReport } from '@memtrail/contracts';
import { readStoredPayload } from '@memtrail/db';
import { ServiceMetrics } from '@memtrail/metrics';
import type { IngestReportJob } from '@memtrail/queue';
import { Batcher, type BatchTicket } from './batcher.js';
import {
  CHUNK_ROWS,
  ClickHouseWriter,
  INGEST_TABLES,
  type IngestTable,
  unstorableValue,
} from './clickhouse-writer.js';
import { regionRows, sectionRows, symbolRows, type RowContext } from './rows.js';
import { StoredReports, type StoredReport } from './stored-reports.js';
import { WorkerConfig } from '../config.js';

/** How long a batch waits for jobs still preparing their report before it is written anyway. */
const BATCH_MAX_WAIT_MS = 100;

export type IngestOutcome =
  | {
      status: 'ingested';
      reportId: string;
      version: number;
      rows: Record<IngestTable, number>;
      /** The ingest batch; null for an identical report, which copies its parent's rows. */
      batchId: string | null;
      /** Reports written in the same ClickHouse inserts, this one included. */
      batchSize: number;
    }
  | { status: 'already_ingested'; reportId: string; version: number }
  | { status: 'stale'; reportId: string; version: number; current?: number };

/** Thrown while an identical report's parent has no rows yet; the consumer delays the job. */
export class ParentNotIngestedError extends Error {
  constructor(reportId: string, parentSha: string) {
    super(`report ${reportId} is identical to ${parentSha}, which is not ingested yet`);
    this.name = 'ParentNotIngestedError';
  }
}

/** A report version's rows, ready to be written. */
interface PreparedReport {
  report: StoredReport;
  context: RowContext;
  rows: Record<IngestTable, readonly Record<string, unknown>[]>;
}

/** A batch result for a report that could not join it: look at the report again. */
type BatchOutcome = IngestOutcome | undefined;

/**
 * Moves stored report versions into ClickHouse. The payload in Postgres is the source of truth;
 * the job only names it. Readers use the report's `ingestedVersion`, which moves only once every
 * row of the new version is written, so an overwrite never reads empty.
 *
 * Reports that jobs prepare at the same time are written together, in one insert per table (an
 * ingest batch): ClickHouse's cost per insert is mostly fixed (a part per table and view, then
 * merging it), so a few large inserts cost far less than many small ones. Exactly once: the
 * batch is recorded on its reports in Postgres before anything is inserted, under a token of
 * its own; a job retried after a crash finds its report's batch and writes again, under the
 * same token, the rows each table does not hold in full (the token covers an insert that is
 * still under way; the check, a retry beyond the table's deduplication window).
 */
@Injectable()
export class IngestReportService {
  private readonly logger = new Logger(IngestReportService.name);
  /** Replays of batches under way, by batch id: each member's outcome, or why it failed. */
  private readonly replays = new Map<string, Promise<Map<string, IngestOutcome | Error>>>();
  private readonly batcher: Batcher<PreparedReport, BatchOutcome>;

  constructor(
    @Inject(StoredReports) private readonly reports: StoredReports,
    @Inject(ClickHouseWriter) private readonly writer: ClickHouseWriter,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(WorkerConfig)
    config: Pick<WorkerConfig, 'WORKER_BATCH_LINGER_MS' | 'WORKER_CONCURRENCY'>,
  ) {
    this.batcher = new Batcher({
      write: (reports) => this.writeNewBatch(reports),
      sizeOf: (prepared) => Math.max(1, ...INGEST_TABLES.map((t) => prepared.rows[t].length)),
      // One insert per table, below the size at which ClickHouse would split it into several
      // blocks: a batch is then stored entirely or not at all under its token.
      maxSize: CHUNK_ROWS,
      maxWaitMs: BATCH_MAX_WAIT_MS,
      lingerMs: config.WORKER_BATCH_LINGER_MS,
      capacity: config.WORKER_CONCURRENCY,
    });
  }

  async ingest(job: IngestReportJob): Promise<IngestOutcome> {
    const started = performance.now();
    const ticket = this.batcher.enter();
    try {
      const outcome = await this.run(job, ticket);
      this.logger.log(describe(outcome, Math.round(performance.now() - started)));
      return outcome;
    } finally {
      ticket.leave();
    }
  }

  private async run(
    job: IngestReportJob,
    ticket?: BatchTicket<PreparedReport, BatchOutcome>,
  ): Promise<IngestOutcome> {
    const report = await this.reports.load(job.reportId);
    // Retrying cannot make a deleted report appear: fail the job at once.
    if (!report) throw new UnrecoverableError(`report ${job.reportId} not found`);
    const { id, version } = report;
    const settled: IngestOutcome | undefined =
      job.version !== undefined && job.version < version
        ? { status: 'stale', reportId: id, version: job.version, current: version }
        : report.ingestedVersion === version
          ? { status: 'already_ingested', reportId: id, version }
          : undefined;
    if (settled || report.kind === 'identical' || report.batchId) {
      // Not joining a new batch: the batch other jobs are forming need not wait for this one.
      ticket?.leave();
      if (settled) return settled;
      return report.batchId ? this.replayBatch(report.batchId, report) : this.copyParent(report);
    }
    if (!ticket) {
      throw new Error(`report ${id} v${version} is neither ingested nor in a batch; retrying`);
    }
    const outcome = await ticket.submit(await this.prepare(report));
    // Not taken into the batch: overwritten, or taken by another job meanwhile.
    return outcome ?? this.run(job);
  }

  /** Decodes the stored payload into rows; an unreadable payload fails the job for good. */
  private async prepare(report: StoredReport): Promise<PreparedReport> {
    let memory: MemoryReport;
    try {
      memory = (await readStoredPayload(report.payload)).memory_analysis;
    } catch (error) {
      throw new UnrecoverableError(
        `report ${report.id}: stored payload is unreadable: ${(error as Error).message}`,
      );
    }
    // A failed build has an empty layout and no symbols: nothing to write, still "ingested".
    memory = {
      ...memory,
      memory_layout: memory.memory_layout ?? {},
      symbols: memory.symbols ?? [],
    };
    const rows = {
      regions_v1: regionRows(memory),
      sections_v1: sectionRows(memory),
      symbols_v1: symbolRows(memory),
    };
    for (const table of INGEST_TABLES) {
      const problem = unstorableValue(table, rows[table]);
      if (problem) throw new UnrecoverableError(`report ${report.id}: ${problem}`);
    }
    return { report, context: contextOf(report), rows };
  }

  /** Records a new batch on its reports, then writes the ones it could take. */
  private async writeNewBatch(prepared: PreparedReport[]): Promise<BatchOutcome[]> {
    const batchId = randomUUID();
    const joined = await this.reports.joinBatch(
      batchId,
      prepared.map(({ report }) => ({ id: report.id, version: report.version })),
    );
    const members = prepared.filter(({ report }) => joined.has(report.id));
    const outcomes = await this.writeBatch(batchId, members);
    return prepared.map(({ report }) => outcomes.get(report.id));
  }

  /**
   * A batch whose job stopped before marking its reports: written again, same token. Every
   * member's job is retried; those in this process share one replay.
   */
  private async replayBatch(batchId: string, report: StoredReport): Promise<IngestOutcome> {
    let replay = this.replays.get(batchId);
    if (!replay) {
      replay = this.writePendingMembers(batchId).finally(() => this.replays.delete(batchId));
      this.replays.set(batchId, replay);
    }
    const outcome = (await replay).get(report.id);
    if (outcome instanceof Error) throw outcome;
    return outcome ?? this.run({ reportId: report.id, version: report.version });
  }

  /**
   * A member that cannot be prepared (a batch recorded before its values were checked) fails
   * alone and is left out, as an overwritten one is: rows it may have in a table the batch did
   * reach are never read, since it is never marked ingested.
   */
  private async writePendingMembers(batchId: string): Promise<Map<string, IngestOutcome | Error>> {
    const members: PreparedReport[] = [];
    const failed = new Map<string, Error>();
    for (const member of await this.reports.pendingMembers(batchId)) {
      try {
        members.push(await this.prepare(member));
      } catch (error) {
        if (!(error instanceof UnrecoverableError)) throw error;
        failed.set(member.id, error);
      }
    }
    this.logger.warn(
      `writing batch ${batchId} again: ${members.length} reports not marked` +
        (failed.size > 0 ? `, ${failed.size} left out as unreadable` : ''),
    );
    return new Map<string, IngestOutcome | Error>([
      ...(await this.writeBatch(batchId, members, { retry: true })),
      ...failed,
    ]);
  }

  private async writeBatch(
    batchId: string,
    members: PreparedReport[],
    options: { retry?: boolean } = {},
  ): Promise<Map<string, IngestOutcome>> {
    const outcomes = new Map<string, IngestOutcome>();
    if (members.length === 0) return outcomes;
    // The tables are independent and each insert carries its own token: send them together.
    await Promise.all(
      INGEST_TABLES.map((table) =>
        this.writer.insert(
          table,
          `batch:${batchId}`,
          members.map(({ context, rows }) => ({ context, rows: rows[table] })),
          options,
        ),
      ),
    );
    const marked = await this.finish(members.map(({ report }) => report));
    this.metrics.ingestBatchReports.observe(members.length);
    for (const { report, rows } of members) {
      const { id, version } = report;
      outcomes.set(
        id,
        marked.has(id)
          ? {
              status: 'ingested',
              reportId: id,
              version,
              rows: rowCounts(rows),
              batchId,
              batchSize: members.length,
            }
          : { status: 'stale', reportId: id, version },
      );
    }
    return outcomes;
  }

  /**
   * Makes the written versions readable; only a version still current is marked (a newer
   * overwrite stays pending). The rows of the version each replaces are dropped afterwards.
   */
  private async finish(reports: StoredReport[]): Promise<Set<string>> {
    const marked = await this.reports.markIngested(
      reports.map(({ id, version }) => ({ id, version })),
    );
    for (const report of reports) {
      if (marked.has(report.id) && report.ingestedVersion !== null) {
        await this.writer.deleteOlder(report.id, report.version);
      }
    }
    return marked;
  }

  /** An identical build's rows are its parent's, re-keyed to this report and commit. */
  private async copyParent(report: StoredReport): Promise<IngestOutcome> {
    const { id, version, targetId, parentSha } = report;
    const parent = parentSha ? await this.reports.ofCommit(targetId, parentSha) : null;
    if (!parent)
      throw new UnrecoverableError(`identical report ${id}: parent ${parentSha} has no report`);
    if (parent.ingestedVersion === null) {
      // Waiting cannot help once the parent failed for good; say why instead of timing out.
      if (parent.status === 'failed') {
        throw new UnrecoverableError(
          `identical report ${id}: parent ${parentSha} failed to ingest (${parent.lastError ?? 'no reason recorded'}); retry it, then this report`,
        );
      }
      throw new ParentNotIngestedError(id, parentSha!);
    }
    const context = contextOf(report);
    const rows = {} as Record<IngestTable, number>;
    for (const table of INGEST_TABLES) {
      const parentRows = await this.writer.read(table, parent.id, parent.ingestedVersion);
      // Cheap next to the read, and this job may be a retry: nothing tells a first run apart.
      await this.writer.insert(table, `${id}:v${version}`, [{ context, rows: parentRows }], {
        retry: true,
      });
      rows[table] = parentRows.length;
    }
    if (!(await this.finish([report])).has(id)) return { status: 'stale', reportId: id, version };
    return { status: 'ingested', reportId: id, version, rows, batchId: null, batchSize: 1 };
  }
}

function contextOf(report: StoredReport): RowContext {
  return {
    project_id: report.projectId,
    target_id: report.targetId,
    report_id: report.id,
    commit_sha: report.commitSha,
    commit_time: report.commitTime.getTime(),
    ingest_version: report.version,
  };
}

function rowCounts(rows: PreparedReport['rows']): Record<IngestTable, number> {
  return Object.fromEntries(INGEST_TABLES.map((t) => [t, rows[t].length])) as Record<
    IngestTable,
    number
  >;
}

/** The job's log line: the report, what happened to it, and how long it took. */
function describe(outcome: IngestOutcome, ms: number): string {
  const report = `report ${outcome.reportId} v${outcome.version}`;
  switch (outcome.status) {
    case 'ingested': {
      const rows = INGEST_TABLES.map((t) => `${outcome.rows[t]} ${t}`).join(', ');
      const batch = outcome.batchId
        ? `batch ${outcome.batchId} of ${outcome.batchSize}`
        : "its parent's rows";
      return `${report} ingested in ${ms} ms with ${batch}: ${rows}`;
    }
    case 'already_ingested':
      return `${report} was already ingested`;
    case 'stale':
      return `${report} skipped: overwritten by${outcome.current ? ` v${outcome.current}` : ' a newer version'}`;
  }
}
