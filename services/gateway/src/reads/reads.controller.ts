import { BadRequestException, Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import {
  QueryPatterns,
  success,
  type CommitDiffData,
  type CommitPageData,
  type CommitReportData,
  type ExportReply,
  type GrowersData,
  type HeadsData,
  type HistoryData,
  type RegionSeriesData,
  type SectionSeriesData,
  type SuccessEnvelope,
  type SymbolPageData,
  SYMBOL_PAGE_MAX,
  SYMBOL_SORT_KEYS,
  type TargetRef,
  type TreeData,
} from '@memtrail/contracts';
import type { Response } from 'express';
import * as p from './params.js';
import { QueryClient } from './query-client.service.js';
import { AccessGuard, Requires, Target } from '../access/access.guard.js';
import { PublicReadable } from '../public-access/public-readable.js';

/**
 * Reads under `/api/{project}/{target}/` (contracts: query.ts). Each checks the caller (a user
 * with a role on the project, or a read key of it; anyone for a public project; 404 otherwise), parses parameters (400 with the reason), then
 * forwards to the query service. Routes with a fixed last segment come before
 * `commit/:shaA/:shaB`, which would otherwise take `commit/{sha}/tree`.
 */
@Controller('api/:project/:target')
@UseGuards(AccessGuard)
@Requires('project:read')
@PublicReadable()
export class ReadsController {
  constructor(private readonly query: QueryClient) {}

  private async read<T>(pattern: string, payload: object): Promise<SuccessEnvelope<T>> {
    return success(await this.query.send<T>(pattern, payload));
  }

  private async download(res: Response, pattern: string, payload: object): Promise<void> {
    const file = await this.query.send<ExportReply>(pattern, payload);
    res.status(200).type(file.contentType).attachment(file.filename).send(file.body);
  }

  @Get('heads')
  async heads(@Target() ref: TargetRef): Promise<SuccessEnvelope<HeadsData>> {
    return this.read(QueryPatterns.heads, ref);
  }

  @Get('commits/:sha')
  async commits(
    @Target() ref: TargetRef,
    @Param('sha') sha: string,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<CommitPageData>> {
    return this.read(QueryPatterns.commits, {
      ...ref,
      sha: p.sha(sha),
      count: p.int(q, 'count', 50, 1, 500),
      offset: p.int(q, 'offset', 0, 0, 1_000_000),
      onlyChanged: p.bool(q, 'only_changed', false),
    });
  }

  @Get('commit/:sha/tree')
  async tree(
    @Target() ref: TargetRef,
    @Param('sha') sha: string,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<TreeData>> {
    return this.read(QueryPatterns.tree, {
      ...ref,
      sha: p.sha(sha),
      groupBy: p.oneOf(q, 'group_by', ['source', 'object'] as const, 'source'),
      includeSymbols: p.bool(q, 'include_symbols', true),
    });
  }

  @Get('commit/:sha/symbols')
  async symbols(
    @Target() ref: TargetRef,
    @Param('sha') sha: string,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<SymbolPageData>> {
    const filter = (name: string, key: string, max = 4096) => {
      const value = p.text(q, name, max);
      return value === undefined ? {} : { [key]: value };
    };
    return this.read(QueryPatterns.symbols, {
      ...ref,
      sha: p.sha(sha),
      offset: p.int(q, 'offset', 0, 0, 10_000_000),
      limit: p.int(q, 'limit', 200, 1, SYMBOL_PAGE_MAX),
      sort: p.oneOf(q, 'sort', SYMBOL_SORT_KEYS, 'size'),
      descending: p.oneOf(q, 'order', ['asc', 'desc'] as const, 'desc') === 'desc',
      ...filter('q', 'query', 200),
      ...filter('file', 'sourceFile'),
      ...filter('region', 'region'),
      ...filter('section', 'section'),
    });
  }

  @Get('commit/:sha/export')
  async exportReport(
    @Target() ref: TargetRef,
    @Param('sha') sha: string,
    @Query() q: p.RawQuery,
    @Res() res: Response,
  ): Promise<void> {
    await this.download(res, QueryPatterns.reportExport, {
      ...ref,
      sha: p.sha(sha),
      format: p.format(q),
    });
  }

  @Get('commit/:sha')
  async report(
    @Target() ref: TargetRef,
    @Param('sha') sha: string,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<CommitReportData>> {
    return this.read(QueryPatterns.report, {
      ...ref,
      sha: p.sha(sha),
      includeSymbols: p.bool(q, 'include_symbols', false),
    });
  }

  @Get('commit/:shaA/:shaB/export')
  async exportDiff(
    @Target() ref: TargetRef,
    @Param('shaA') shaA: string,
    @Param('shaB') shaB: string,
    @Query() q: p.RawQuery,
    @Res() res: Response,
  ): Promise<void> {
    await this.download(res, QueryPatterns.diffExport, {
      ...ref,
      baseSha: p.sha(shaA, 'shaA'),
      headSha: p.sha(shaB, 'shaB'),
      allSymbols: p.bool(q, 'all_symbols', false),
      format: p.format(q),
    });
  }

  @Get('commit/:shaA/:shaB')
  async diff(
    @Target() ref: TargetRef,
    @Param('shaA') shaA: string,
    @Param('shaB') shaB: string,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<CommitDiffData>> {
    return this.read(QueryPatterns.diff, {
      ...ref,
      baseSha: p.sha(shaA, 'shaA'),
      headSha: p.sha(shaB, 'shaB'),
      allSymbols: p.bool(q, 'all_symbols', false),
      zeroSize: p.bool(q, 'zero_size', false),
    });
  }

  @Get('series/regions')
  async regionSeries(
    @Target() ref: TargetRef,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<RegionSeriesData>> {
    return this.read(QueryPatterns.regionSeries, { ...ref, selection: p.selection(q) });
  }

  @Get('series/sections')
  async sectionSeries(
    @Target() ref: TargetRef,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<SectionSeriesData>> {
    const names = p.text(q, 'names');
    return this.read(QueryPatterns.sectionSeries, {
      ...ref,
      selection: p.selection(q),
      ...(names
        ? {
            names: names
              .split(',')
              .map((n) => n.trim())
              .filter(Boolean),
          }
        : {}),
    });
  }

  @Get('symbols/history')
  async symbolHistory(
    @Target() ref: TargetRef,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<HistoryData>> {
    return this.read(QueryPatterns.symbolHistory, {
      ...ref,
      subject: p.required(q, 'name'),
      selection: p.selection(q),
    });
  }

  @Get('files/history')
  async fileHistory(
    @Target() ref: TargetRef,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<HistoryData>> {
    return this.read(QueryPatterns.fileHistory, {
      ...ref,
      subject: p.required(q, 'path'),
      selection: p.selection(q),
    });
  }

  @Get('growers')
  async growers(
    @Target() ref: TargetRef,
    @Query() q: p.RawQuery,
  ): Promise<SuccessEnvelope<GrowersData>> {
    const base = p.text(q, 'base', 64);
    const head = p.text(q, 'head', 64);
    const branch = p.text(q, 'branch', 255);
    const common = {
      ...ref,
      by: p.oneOf(q, 'by', ['symbol', 'file'] as const, 'symbol'),
      limit: p.int(q, 'limit', 20, 1, 1000),
    };
    if (branch !== undefined && base === undefined && head === undefined) {
      const from = p.time(q, 'from');
      const to = p.time(q, 'to');
      return this.read(QueryPatterns.growers, {
        ...common,
        branch,
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      });
    }
    if (branch !== undefined || base === undefined || head === undefined) {
      throw new BadRequestException(
        'Give base and head commits, or a branch with an optional from/to window',
      );
    }
    return this.read(QueryPatterns.growers, {
      ...common,
      baseSha: p.sha(base, 'base'),
      headSha: p.sha(head, 'head'),
    });
  }
}
