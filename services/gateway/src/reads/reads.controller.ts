import { Controller, Get, Param, Query, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import {
  QueryPatterns,
  type CommitDiffData,
  type CommitPageData,
  type CommitReportData,
  type ExportReply,
  type GrowersData,
  type HeadsData,
  type HistoryData,
  type RegionSeriesData,
  type SectionSeriesData,
  type SeriesSelection,
  type Serialized,
  type SymbolPageData,
  type TargetRef,
  type TreeData,
} from '@memtrail/contracts';
import type { Response } from 'express';
import { EnvelopeText, EnvelopeTextInterceptor } from './envelope-text.interceptor.js';
import { QueryClient } from './query-client.service.js';
import { AccessGuard, Requires, Target } from '../access/access.guard.js';
import { pathOf, queryOf, type PathOf, type QueryOf } from '../http/input.js';
import { PublicReadable } from '../public-access/public-readable.js';

const COMMIT = 'GET /api/{project}/{target}/commit/{sha}';
const DIFF = 'GET /api/{project}/{target}/commit/{shaA}/{shaB}';
const REGIONS = 'GET /api/{project}/{target}/series/regions';

/** `branch=` or `sha=`, with the window and limit, as the query service takes it. */
function selection({ branch, sha, from, to, limit }: QueryOf<typeof REGIONS>): SeriesSelection {
  return {
    ...(branch !== undefined ? { branch } : { sha: sha! }),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    limit,
  };
}

/**
 * Reads under `/api/{project}/{target}/` (operations in @memtrail/contracts). Each checks the
 * caller (a user with a role on the project, or a read key of it; anyone for a public project;
 * 404 otherwise), parses parameters with the operation's schemas (400 with the reason), then
 * forwards to the query service, whose answer is sent as the JSON it arrived as. Routes with a
 * fixed last segment come before `commit/:shaA/:shaB`, which would otherwise take
 * `commit/{sha}/tree`.
 */
@Controller('api/:project/:target')
@UseGuards(AccessGuard)
@UseInterceptors(EnvelopeTextInterceptor)
@Requires('project:read')
@PublicReadable()
export class ReadsController {
  constructor(private readonly query: QueryClient) {}

  /** The answer goes out as the query service serialised it (`Serialized`), unparsed here. */
  private async read<T>(pattern: string, payload: object): Promise<EnvelopeText<T>> {
    return EnvelopeText.of(await this.query.send<Serialized<T> | T>(pattern, payload));
  }

  private async download(res: Response, pattern: string, payload: object): Promise<void> {
    const file = await this.query.send<ExportReply>(pattern, payload);
    res.status(200).type(file.contentType).attachment(file.filename).send(file.body);
  }

  @Get('heads')
  async heads(@Target() ref: TargetRef): Promise<EnvelopeText<HeadsData>> {
    return this.read(QueryPatterns.heads, ref);
  }

  @Get('commits/:sha')
  async commits(
    @Target() ref: TargetRef,
    @Param(pathOf('GET /api/{project}/{target}/commits/{sha}')) { sha }: PathOf<typeof COMMIT>,
    @Query(queryOf('GET /api/{project}/{target}/commits/{sha}'))
    q: QueryOf<'GET /api/{project}/{target}/commits/{sha}'>,
  ): Promise<EnvelopeText<CommitPageData>> {
    return this.read(QueryPatterns.commits, {
      ...ref,
      sha,
      count: q.count,
      offset: q.offset,
      onlyChanged: q.only_changed,
    });
  }

  @Get('commit/:sha/tree')
  async tree(
    @Target() ref: TargetRef,
    @Param(pathOf(COMMIT)) { sha }: PathOf<typeof COMMIT>,
    @Query(queryOf('GET /api/{project}/{target}/commit/{sha}/tree'))
    q: QueryOf<'GET /api/{project}/{target}/commit/{sha}/tree'>,
  ): Promise<EnvelopeText<TreeData>> {
    return this.read(QueryPatterns.tree, {
      ...ref,
      sha,
      groupBy: q.group_by,
      includeSymbols: q.include_symbols,
    });
  }

  @Get('commit/:sha/symbols')
  async symbols(
    @Target() ref: TargetRef,
    @Param(pathOf(COMMIT)) { sha }: PathOf<typeof COMMIT>,
    @Query(queryOf('GET /api/{project}/{target}/commit/{sha}/symbols'))
    q: QueryOf<'GET /api/{project}/{target}/commit/{sha}/symbols'>,
  ): Promise<EnvelopeText<SymbolPageData>> {
    return this.read(QueryPatterns.symbols, {
      ...ref,
      sha,
      offset: q.offset,
      limit: q.limit,
      sort: q.sort,
      descending: q.order === 'desc',
      ...(q.q !== undefined && { query: q.q }),
      ...(q.file !== undefined && { sourceFile: q.file }),
      ...(q.region !== undefined && { region: q.region }),
      ...(q.section !== undefined && { section: q.section }),
    });
  }

  @Get('commit/:sha/export')
  async exportReport(
    @Target() ref: TargetRef,
    @Param(pathOf(COMMIT)) { sha }: PathOf<typeof COMMIT>,
    @Query(queryOf('GET /api/{project}/{target}/commit/{sha}/export'))
    q: QueryOf<'GET /api/{project}/{target}/commit/{sha}/export'>,
    @Res() res: Response,
  ): Promise<void> {
    await this.download(res, QueryPatterns.reportExport, { ...ref, sha, format: q.format });
  }

  @Get('commit/:sha')
  async report(
    @Target() ref: TargetRef,
    @Param(pathOf(COMMIT)) { sha }: PathOf<typeof COMMIT>,
    @Query(queryOf(COMMIT)) q: QueryOf<typeof COMMIT>,
  ): Promise<EnvelopeText<CommitReportData>> {
    return this.read(QueryPatterns.report, { ...ref, sha, includeSymbols: q.include_symbols });
  }

  @Get('commit/:shaA/:shaB/export')
  async exportDiff(
    @Target() ref: TargetRef,
    @Param(pathOf(DIFF)) { shaA, shaB }: PathOf<typeof DIFF>,
    @Query(queryOf('GET /api/{project}/{target}/commit/{shaA}/{shaB}/export'))
    q: QueryOf<'GET /api/{project}/{target}/commit/{shaA}/{shaB}/export'>,
    @Res() res: Response,
  ): Promise<void> {
    await this.download(res, QueryPatterns.diffExport, {
      ...ref,
      baseSha: shaA,
      headSha: shaB,
      allSymbols: q.all_symbols,
      format: q.format,
    });
  }

  @Get('commit/:shaA/:shaB')
  async diff(
    @Target() ref: TargetRef,
    @Param(pathOf(DIFF)) { shaA, shaB }: PathOf<typeof DIFF>,
    @Query(queryOf(DIFF)) q: QueryOf<typeof DIFF>,
  ): Promise<EnvelopeText<CommitDiffData>> {
    return this.read(QueryPatterns.diff, {
      ...ref,
      baseSha: shaA,
      headSha: shaB,
      allSymbols: q.all_symbols,
      zeroSize: q.zero_size,
    });
  }

  @Get('series/regions')
  async regionSeries(
    @Target() ref: TargetRef,
    @Query(queryOf(REGIONS)) q: QueryOf<typeof REGIONS>,
  ): Promise<EnvelopeText<RegionSeriesData>> {
    return this.read(QueryPatterns.regionSeries, { ...ref, selection: selection(q) });
  }

  @Get('series/sections')
  async sectionSeries(
    @Target() ref: TargetRef,
    @Query(queryOf('GET /api/{project}/{target}/series/sections'))
    q: QueryOf<'GET /api/{project}/{target}/series/sections'>,
  ): Promise<EnvelopeText<SectionSeriesData>> {
    return this.read(QueryPatterns.sectionSeries, {
      ...ref,
      selection: selection(q),
      ...(q.names?.length ? { names: q.names } : {}),
    });
  }

  @Get('symbols/history')
  async symbolHistory(
    @Target() ref: TargetRef,
    @Query(queryOf('GET /api/{project}/{target}/symbols/history'))
    q: QueryOf<'GET /api/{project}/{target}/symbols/history'>,
  ): Promise<EnvelopeText<HistoryData>> {
    return this.read(QueryPatterns.symbolHistory, {
      ...ref,
      subject: q.name,
      selection: selection(q),
    });
  }

  @Get('files/history')
  async fileHistory(
    @Target() ref: TargetRef,
    @Query(queryOf('GET /api/{project}/{target}/files/history'))
    q: QueryOf<'GET /api/{project}/{target}/files/history'>,
  ): Promise<EnvelopeText<HistoryData>> {
    return this.read(QueryPatterns.fileHistory, {
      ...ref,
      subject: q.path,
      selection: selection(q),
    });
  }

  @Get('growers')
  async growers(
    @Target() ref: TargetRef,
    @Query(queryOf('GET /api/{project}/{target}/growers'))
    q: QueryOf<'GET /api/{project}/{target}/growers'>,
  ): Promise<EnvelopeText<GrowersData>> {
    const window =
      q.branch !== undefined
        ? { branch: q.branch, ...(q.from && { from: q.from }), ...(q.to && { to: q.to }) }
        : { baseSha: q.base, headSha: q.head };
    return this.read(QueryPatterns.growers, { ...ref, by: q.by, limit: q.limit, ...window });
  }
}
