import { Inject, Injectable } from '@nestjs/common';
import type {
  DiffExportRequest,
  ExportReply,
  ReportExportRequest,
  ReportSymbolRow,
  SymbolDelta,
} from '@memtrail/contracts';
import { toCsv } from './csv.js';
import { badRequest } from './errors.js';
import { DiffService } from './diff.service.js';
import { ReportService } from './report.service.js';

const SYMBOL_COLUMNS = [
  'name',
  'full_name',
  'address',
  'size',
  'type',
  'binding',
  'section',
  'region',
  'source_file',
  'source_line',
  'archive',
  'object_file',
] as const satisfies readonly (keyof ReportSymbolRow)[];

interface DiffCsvRow {
  status: string;
  name: string;
  old_name: string;
  delta: number;
  old_size: number | null;
  new_size: number | null;
  old_section: string;
  new_section: string;
  old_region: string;
  new_region: string;
  old_source_file: string;
  new_source_file: string;
  match_level: number | null;
}

const DIFF_COLUMNS = [
  'status',
  'name',
  'old_name',
  'delta',
  'old_size',
  'new_size',
  'old_section',
  'new_section',
  'old_region',
  'new_region',
  'old_source_file',
  'new_source_file',
  'match_level',
] as const satisfies readonly (keyof DiffCsvRow)[];

function diffRow(s: SymbolDelta): DiffCsvRow {
  return {
    status: s.status,
    name: s.name,
    old_name: s.old_name ?? '',
    delta: s.delta,
    old_size: s.old?.size ?? null,
    new_size: s.new?.size ?? null,
    old_section: s.old?.section ?? '',
    new_section: s.new?.section ?? '',
    old_region: s.old?.region ?? '',
    new_region: s.new?.region ?? '',
    old_source_file: s.old?.source_file ?? '',
    new_source_file: s.new?.source_file ?? '',
    match_level: s.match_level,
  };
}

/**
 * Downloads: JSON is the same document as the read (report with symbols, or the diff); CSV is
 * one row per symbol (report) or per symbol change (diff).
 */
@Injectable()
export class ExportService {
  constructor(
    @Inject(ReportService) private readonly reports: ReportService,
    @Inject(DiffService) private readonly diffs: DiffService,
  ) {}

  async report(req: ReportExportRequest): Promise<ExportReply> {
    const data = await this.reports.report({ ...req, includeSymbols: true });
    const base = `${req.target}-${req.sha}`;
    if (req.format === 'json') return json(`${base}.json`, data);
    if (data.symbols === null) {
      // A CSV without rows would read as a build without symbols.
      throw badRequest(
        `Commit ${req.sha} of target ${req.target} is still being ingested; try again shortly`,
      );
    }
    return {
      filename: `${base}.csv`,
      contentType: 'text/csv',
      body: toCsv(SYMBOL_COLUMNS, data.symbols),
    };
  }

  async diff(req: DiffExportRequest): Promise<ExportReply> {
    const data = await this.diffs.diff(req);
    const base = `${req.target}-${req.baseSha}-${req.headSha}`;
    if (req.format === 'json') return json(`${base}.json`, data);
    return {
      filename: `${base}.csv`,
      contentType: 'text/csv',
      body: toCsv(DIFF_COLUMNS, data.diff.symbols.map(diffRow)),
    };
  }
}

function json(filename: string, data: unknown): ExportReply {
  return { filename, contentType: 'application/json', body: JSON.stringify(data) };
}
