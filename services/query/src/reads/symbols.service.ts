import { Inject, Injectable } from '@nestjs/common';
import type { ReportSymbolRow, SymbolPageData, SymbolPageRequest } from '@memtrail/contracts';
import { ReportService } from './report.service.js';

/**
 * One page of a report's symbols, sorted, filtered and searched here so a 40k-symbol report
 * reaches the browser a screenful at a time. The symbols come from the report cache, so the
 * pages after the first cost no ClickHouse read.
 */
@Injectable()
export class SymbolsService {
  constructor(@Inject(ReportService) private readonly reports: ReportService) {}

  async page(req: SymbolPageRequest): Promise<SymbolPageData> {
    const record = await this.reports.find(req, req.sha);
    const pending = this.reports.shownSymbols(record);
    const empty = { commit_sha: req.sha, offset: req.offset, total: 0, source_root: '' };
    if (!pending) return { ...empty, matched: 0, matched_bytes: 0, rows: null };
    const symbols = await pending;
    const { rows } = symbols;
    const needle = req.query?.toLowerCase();
    const search = needle ? symbols.search() : null;
    const keep = (i: number, row: ReportSymbolRow) =>
      (req.sourceFile === undefined || row.source_file === req.sourceFile) &&
      (req.region === undefined || row.region === req.region) &&
      (req.section === undefined || row.section === req.section) &&
      (!search || search[i]!.includes(needle!));
    const order = symbols.order(req.sort);
    const page: ReportSymbolRow[] = [];
    let matched = 0;
    let bytes = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[req.descending ? order.length - 1 - k : k]!;
      const row = rows[i]!;
      if (!keep(i, row)) continue;
      if (matched >= req.offset && page.length < req.limit) page.push(row);
      matched++;
      bytes += row.size;
    }
    return {
      ...empty,
      total: rows.length,
      matched,
      matched_bytes: bytes,
      source_root: symbols.sourceRoot,
      rows: page,
    };
  }
}
