import { gzipSync } from 'node:zlib';
import type { ClickHouseClient } from '@memtrail/clickhouse';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  readBlocks,
  readVersion,
  type PrismaClient,
  type Queryable,
  type ReportKind,
} from '@memtrail/db';
import { reportSymbols, storedForm, type Block, type StoredSymbol } from '@memtrail/symbol-blocks';

/**
 * Stores a report version the way the gateway stores an upload: the report row, its version
 * (header and record, whole) and the blocks the target does not hold yet.
 */
export async function storeVersion(
  prisma: PrismaClient,
  reportId: string,
  version: number,
  envelope: UploadEnvelope,
  kind: ReportKind,
): Promise<{ newBlocks: number }> {
  const report = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
  const form = storedForm(envelope, kind);
  await prisma.reportVersion.create({
    data: {
      reportId,
      version,
      targetId: report.targetId,
      header: form.header as Uint8Array<ArrayBuffer>,
      record: form.record as Uint8Array<ArrayBuffer> | null,
    },
  });
  const { count } = await prisma.symbolBlock.createMany({
    data: form.blocks.map((b) => ({
      targetId: report.targetId,
      hash: Buffer.from(b.hash, 'hex') as Uint8Array<ArrayBuffer>,
      data: gzipSync(b.canonical) as Uint8Array<ArrayBuffer>,
      symbolCount: b.symbolCount,
    })),
    skipDuplicates: true,
  });
  return { newBlocks: count };
}

/** Rows of a ClickHouse symbol block table per block (ordinal order), as the query service reads them. */
export async function clickhouseBlocks(
  clickhouse: ClickHouseClient,
  targetId: string,
): Promise<Map<string, { rows: number; block: Block }>> {
  const result = await clickhouse.query({
    query: `SELECT block_hash, ordinal, section, name, full_name, rel, size, type, binding, visibility,
                   source_file, source_line, archive, object_file
            FROM symbol_blocks_v2 WHERE target_id = {targetId:String}
            ORDER BY block_hash, ordinal`,
    query_params: { targetId },
    format: 'JSONEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  const blocks = new Map<string, { rows: number; block: Block }>();
  for (const r of await result.json<Record<string, string | number>>()) {
    const hash = r.block_hash as string;
    let entry = blocks.get(hash);
    if (!entry)
      blocks.set(hash, (entry = { rows: 0, block: { section: r.section as string, symbols: [] } }));
    entry.rows++;
    entry.block.symbols[r.ordinal as number] = {
      name: r.name as string,
      full_name: r.full_name as string,
      rel: r.rel as number,
      size: r.size as number,
      type: r.type as string,
      binding: r.binding as string,
      visibility: r.visibility as string,
      source_file: r.source_file as string,
      source_line: r.source_line as number,
      archive: r.archive as string,
      object_file: r.object_file as string,
    };
  }
  return blocks;
}

/**
 * A version's symbols as stored: its record (Postgres) and its blocks — from ClickHouse where
 * the worker has copied them, else from Postgres, as the query service reads them.
 */
export async function storedSymbols(
  db: Queryable,
  clickhouse: ClickHouseClient,
  reportId: string,
  version: number,
): Promise<StoredSymbol[]> {
  const stored = await readVersion(db, reportId, version);
  if (!stored?.record) throw new Error(`report ${reportId} v${version} has no record`);
  const hashes = [...new Set(stored.record.entries.map((e) => e.hash))];
  const { rows } = await db.query<{ hash: Buffer }>(
    `SELECT hash FROM symbol_blocks WHERE target_id = $1 AND hash = ANY($2::bytea[]) AND in_clickhouse`,
    [stored.targetId, hashes.map((h) => Buffer.from(h, 'hex'))],
  );
  // Blocks marked copied must come from ClickHouse; ClickHouse is not asked when none is.
  const copied =
    rows.length > 0
      ? await clickhouseBlocks(clickhouse, stored.targetId)
      : new Map<string, never>();
  for (const { hash } of rows)
    if (!copied.has(hash.toString('hex')))
      throw new Error(`block ${hash.toString('hex')} is marked copied but ClickHouse lacks it`);
  const waiting = hashes.filter((h) => !copied.has(h));
  const fromPostgres =
    waiting.length > 0 ? await readBlocks(db, stored.targetId, waiting) : new Map<string, Block>();
  return reportSymbols(stored.record, (hash) => copied.get(hash)?.block ?? fromPostgres.get(hash)!);
}
