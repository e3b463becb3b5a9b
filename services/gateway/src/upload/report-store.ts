import { ConflictException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import {
  inTransaction,
  SqlPool,
  storableRecord,
  type SqlClient,
  type VersionKey,
} from '@memtrail/db';
import { decodeRecord, HASH_BYTES } from '@memtrail/symbol-blocks';
import { toBudgetRules, type BudgetRule } from '../ci-summary/budget-alerts.js';
import type { DecodedUpload } from './decode/decode-upload.js';
import { DecodePool } from './decode/decode-pool.js';
import { storedTotals, type Totals } from '../ci-summary/totals.js';
import type { ValidUpload } from './validate-upload.js';
import { blocksToStore } from './blocks-to-store.js';
import { KnownVersions, type KnownVersion } from './known-versions.js';

export interface StoredUpload {
  reportId: string;
  targetId: string;
  version: number;
  isOverwritten: boolean;
  totals: Totals;
  parentTotals: Totals | null;
  budgets: BudgetRule[];
  /** The target's region configuration as stored (see RegionPlan). */
  regionConfig: unknown;
}

/** What an upload may change besides adding a report (upload-auth decides). */
export interface StorePolicy {
  /** Replace the report the target already has for the commit. */
  replace: boolean;
  /** Create the target when the project has none of that name. */
  createTarget: boolean;
}

/** Where each of these buffers starts once they are concatenated. */
function starts(buffers: readonly Buffer[]): number[] {
  let start = 0;
  return buffers.map((b) => (start += b.length) - b.length);
}

/** What the upload needs to know about its target before its report is written. */
interface TargetContext {
  id: string;
  budgets: BudgetRule[];
  regionConfig: unknown;
  /** Totals of the parent commit's report for this target, when there is one. */
  parentTotals: Totals | null;
  /** The parent report's current version, whose record the new one is written as changes to. */
  parent: VersionKey | null;
}

/**
 * Stores one upload in a single transaction: target, commit metadata, the report row with its
 * totals, the new report version (header and record) with the blocks the target does not hold
 * yet, the branch head. A typical commit adds a few blocks: the rest of its symbols are
 * referenced, not stored again (docs/query.md). Plain SQL rather than Prisma because this runs
 * on every upload (see SqlPool); the tables and their meaning are those of the Prisma schema.
 * Four round trips to Postgres when this process stored the parent (KnownVersions); reading
 * the parent's record (one or two) and looking up the target's blocks (one) add to them
 * otherwise. Each costs the gateway and Postgres a little CPU, a wait for both to be scheduled
 * on a busy machine, and a network round trip in a deployment — the lock therefore comes with
 * BEGIN, the branch head moves in the statement that stores the report, and that statement and
 * the target's are prepared once per connection.
 */
@Injectable()
export class ReportStore {
  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(DecodePool) private readonly decoder: DecodePool,
    @Inject(KnownVersions) private readonly versions: KnownVersions,
  ) {}

  async store(
    projectId: string,
    decoded: DecodedUpload,
    policy: StorePolicy,
  ): Promise<StoredUpload> {
    // Uploads of one target are serialised, so concurrent uploads of the same commit end as
    // one consistent report, heads move in order and the blocks a target holds stay as read.
    const { stored, version } = await inTransaction(
      this.sql,
      (db) => this.storeIn(db, projectId, decoded, policy),
      { lock: `${projectId}/${decoded.upload.targetName}` },
    );
    if (version) this.versions.remember(stored, version);
    return stored;
  }

  private async storeIn(
    db: SqlClient,
    projectId: string,
    decoded: DecodedUpload,
    policy: StorePolicy,
  ): Promise<{ stored: StoredUpload; version: KnownVersion | null }> {
    const {
      upload,
      totals: reportTotals,
      symbolCount,
      header,
      record,
      sentRecord,
      sha256,
    } = decoded;
    const target = await this.targetContext(db, projectId, upload, policy.createTarget);
    const { parentTotals } = target;
    if (upload.kind === 'identical' && !parentTotals) {
      throw new ConflictException(
        `Identical upload of ${upload.commitSha}: its parent ${upload.parentSha} has no report for target ` +
          `"${upload.targetName}" yet; upload the parent first`,
      );
    }
    // An identical build's footprint is its parent's; a failed build has none.
    const totals = upload.kind === 'identical' ? parentTotals! : reportTotals;

    // Written as changes to the parent's record when the parent has one: a few hundred bytes
    // for a typical commit instead of about 20 per block of the report. The parent's blocks
    // are also the ones the target surely holds.
    const parentRecord = record && target.parent && (await this.versions.read(db, target.parent));
    const { blocks, symbols } = await blocksToStore(
      db,
      this.decoder,
      target.id,
      decoded,
      parentRecord || null,
    );
    const whole = record && (sentRecord ?? decodeRecord(record));
    const stored =
      whole && storableRecord(whole, parentRecord ? { ...target.parent!, ...parentRecord } : null);

    const c = upload.commit;
    // The commit's metadata is stored once per project and commit (later uploads only fill
    // gaps); the report is one per target and commit, and a re-upload overwrites it with a new
    // version. The version and the blocks new to the target go in the same statement.
    const report = await db.query<{ id: string; version: number; overwritten: boolean }>({
      name: 'upload-store-report',
      text: `WITH commit AS (
         INSERT INTO commits (project_id, sha, message, author_name, author_email, committed_at, tags)
         VALUES ($1, $2, $3, $4, $5, $6, $7::text[])
         ON CONFLICT (project_id, sha) DO UPDATE SET
           message = COALESCE(commits.message, EXCLUDED.message),
           author_name = COALESCE(commits.author_name, EXCLUDED.author_name),
           author_email = COALESCE(commits.author_email, EXCLUDED.author_email),
           committed_at = COALESCE(commits.committed_at, EXCLUDED.committed_at),
           tags = CASE WHEN cardinality(commits.tags) = 0 THEN EXCLUDED.tags ELSE commits.tags END,
           updated_at = now()
         RETURNING id
       ), report AS (
       INSERT INTO reports (parent_sha, no_parent, branch, pr_number, pr_name, pr_author_name,
         pr_author_email, kind, status, payload, payload_sha256, region_totals, section_totals,
         symbol_count, analysis_version, target_id, commit_id)
       VALUES ($8, $9, $10, $11, $12, $13, $14, $15::report_kind, 'pending', $16::bytea, $17,
         $18::jsonb, $19::jsonb, $20, $21, $22, (SELECT id FROM commit))
       ON CONFLICT (target_id, commit_id) DO UPDATE SET
         parent_sha = EXCLUDED.parent_sha, no_parent = EXCLUDED.no_parent,
         branch = EXCLUDED.branch, pr_number = EXCLUDED.pr_number, pr_name = EXCLUDED.pr_name,
         pr_author_name = EXCLUDED.pr_author_name, pr_author_email = EXCLUDED.pr_author_email,
         kind = EXCLUDED.kind, status = 'pending', payload = EXCLUDED.payload,
         payload_sha256 = EXCLUDED.payload_sha256, region_totals = EXCLUDED.region_totals,
         section_totals = EXCLUDED.section_totals, symbol_count = EXCLUDED.symbol_count,
         analysis_version = EXCLUDED.analysis_version, last_error = NULL,
         version = reports.version + 1, overwrite_count = reports.overwrite_count + 1,
         updated_at = now()
       WHERE $23::boolean
       RETURNING id, version, overwrite_count > 0 AS overwritten
       ), version AS (
         INSERT INTO report_versions (report_id, version, target_id, header, record,
           record_base_report_id, record_base_version, record_depth)
         SELECT id, version, $22::uuid, $24::bytea, $25::bytea, $29::uuid, $30::int, $31::int
         FROM report
       ), blocks AS (
         -- Only with a report (an upload refused a replacement stores nothing).
         INSERT INTO symbol_blocks (target_id, hash, data, symbol_count)
         -- Hashes and data each come as one bytea (an array of bytea travels as text, every
         -- byte in hex), cut by each block's start and length.
         SELECT $22::uuid, substring($26::bytea FROM (b.i::int - 1) * ${HASH_BYTES} + 1 FOR ${HASH_BYTES}),
           substring($27::bytea FROM b.start + 1 FOR b.length), b.symbols
         FROM unnest($28::int[], $32::int[], $33::int[]) WITH ORDINALITY AS b(start, length, symbols, i),
           report
         ON CONFLICT DO NOTHING
       ), head AS (
         -- The branch head moves to this commit unless it holds a newer one (by commit time).
         INSERT INTO heads (target_id, branch, commit_sha, report_id)
         SELECT $22::uuid, $10, $2, id FROM report WHERE $10::text IS NOT NULL
         ON CONFLICT (target_id, branch) DO UPDATE SET
           commit_sha = EXCLUDED.commit_sha, report_id = EXCLUDED.report_id, updated_at = now()
         WHERE $6::timestamptz IS NULL OR NOT EXISTS (
           SELECT 1 FROM reports r JOIN commits c ON c.id = r.commit_id
           WHERE r.id = heads.report_id AND c.committed_at > $6::timestamptz
         )
       )
       SELECT id::text, version, overwritten FROM report`,
      values: [
        projectId,
        upload.commitSha,
        c.message,
        c.authorName,
        c.authorEmail,
        c.committedAt,
        c.tags,
        upload.parentSha,
        upload.noParent,
        upload.branch,
        upload.pr.number,
        upload.pr.name,
        upload.pr.authorName,
        upload.pr.authorEmail,
        upload.kind,
        // The whole payload is no longer kept (the legacy column stays null).
        null,
        sha256,
        JSON.stringify(totals.regions),
        JSON.stringify(totals.sections),
        symbolCount,
        upload.analysisVersion,
        target.id,
        policy.replace,
        header,
        stored?.record ?? null,
        Buffer.concat(blocks.hashes),
        Buffer.concat(blocks.data),
        starts(blocks.data),
        stored?.base?.reportId ?? null,
        stored?.base?.version ?? null,
        stored?.depth ?? 0,
        blocks.data.map((d) => d.length),
        blocks.symbols,
      ],
    });
    if (!report.rows[0]) {
      // Rolled back with the transaction, commit metadata included.
      throw new ConflictException(
        `Commit ${upload.commitSha} already has a report for target "${upload.targetName}", ` +
          'and this upload may only add reports, not replace them',
      );
    }
    const { id: reportId, version, overwritten } = report.rows[0];
    return {
      stored: {
        reportId,
        targetId: target.id,
        version,
        isOverwritten: overwritten,
        totals,
        parentTotals,
        budgets: target.budgets,
        regionConfig: target.regionConfig,
      },
      version: whole && stored ? { record: whole, depth: stored.depth, symbols } : null,
    };
  }

  /**
   * The target with its budgets, region configuration and its parent report's totals, in one
   * statement. Targets are
   * created by their first upload, which has neither.
   */
  private async targetContext(
    db: SqlClient,
    projectId: string,
    upload: ValidUpload,
    create: boolean,
  ): Promise<TargetContext> {
    const found = await db.query<{
      id: string;
      budgets: { name: string; branchPattern: string | null; limits: unknown }[] | null;
      region_config: unknown;
      region_totals: unknown;
      section_totals: unknown;
      parent_id: string | null;
      parent_version: number | null;
    }>({
      name: 'upload-target-context',
      text: `SELECT t.id::text,
         (SELECT json_agg(json_build_object('name', b.name, 'branchPattern', b.branch_pattern,
                   'limits', b.limits) ORDER BY b.created_at, b.name)
          FROM budgets b WHERE b.target_id = t.id) AS budgets,
         t.region_config, parent.region_totals, parent.section_totals,
         parent.id::text AS parent_id, parent.version AS parent_version
       FROM targets t
       LEFT JOIN LATERAL (
         SELECT r.id, r.version, r.region_totals, r.section_totals FROM reports r
         JOIN commits c ON c.id = r.commit_id AND c.project_id = t.project_id
         WHERE r.target_id = t.id AND c.sha = $3 LIMIT 1
       ) parent ON true
       WHERE t.project_id = $1 AND t.name = $2`,
      values: [projectId, upload.targetName, upload.parentSha],
    });
    const row = found.rows[0];
    if (row) {
      return {
        id: row.id,
        budgets: toBudgetRules(row.budgets ?? []),
        regionConfig: row.region_config,
        parentTotals: row.region_totals
          ? storedTotals(row.region_totals, row.section_totals)
          : null,
        parent:
          row.parent_id !== null && row.parent_version !== null
            ? { reportId: row.parent_id, version: row.parent_version }
            : null,
      };
    }
    if (!create) {
      throw new ForbiddenException(
        `The project has no target "${upload.targetName}", and this upload may only add ` +
          'reports to existing targets',
      );
    }
    const created = await db.query<{ id: string }>(
      'INSERT INTO targets (project_id, name) VALUES ($1, $2) RETURNING id::text',
      [projectId, upload.targetName],
    );
    return {
      id: created.rows[0]!.id,
      budgets: [],
      regionConfig: {},
      parentTotals: null,
      parent: null,
    };
  }
}
