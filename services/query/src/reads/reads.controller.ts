import { Controller, Inject, UseInterceptors } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  QueryPatterns,
  type CommitDiffData,
  type CommitPageData,
  type CommitReportData,
  type CommitsRequest,
  type DiffRequest,
  type GrowersData,
  type GrowersRequest,
  type HeadsData,
  type HistoryData,
  type HistoryRequest,
  type RegionSeriesData,
  type ReportRequest,
  type SectionSeriesData,
  type SeriesRequest,
  type SymbolPageData,
  type SymbolPageRequest,
  type TargetRef,
  type TreeData,
  type TreeRequest,
} from '@memtrail/contracts';
import { CommitsService } from './commits.service.js';
import { DiffService } from './diff.service.js';
import { GrowersService } from './growers.service.js';
import { HeadsService } from './heads.service.js';
import { HistoryService } from './history.service.js';
import { ReportService } from './report.service.js';
import { SeriesService } from './series.service.js';
import { SymbolsService } from './symbols.service.js';
import { TextAnswersInterceptor } from './text-answers.interceptor.js';

/**
 * Every read the gateway forwards but exports; requests arrive parsed and membership-checked.
 * Answers go back as text to a gateway that asks for it (TextAnswersInterceptor).
 */
@Controller()
@UseInterceptors(TextAnswersInterceptor)
export class ReadsController {
  constructor(
    @Inject(HeadsService) private readonly headsService: HeadsService,
    @Inject(CommitsService) private readonly commitsService: CommitsService,
    @Inject(ReportService) private readonly reportService: ReportService,
    @Inject(DiffService) private readonly diffService: DiffService,
    @Inject(SeriesService) private readonly seriesService: SeriesService,
    @Inject(HistoryService) private readonly historyService: HistoryService,
    @Inject(GrowersService) private readonly growersService: GrowersService,
    @Inject(SymbolsService) private readonly symbolsService: SymbolsService,
  ) {}

  @MessagePattern(QueryPatterns.heads)
  heads(@Payload() req: TargetRef): Promise<HeadsData> {
    return this.headsService.heads(req);
  }

  @MessagePattern(QueryPatterns.commits)
  commits(@Payload() req: CommitsRequest): Promise<CommitPageData> {
    return this.commitsService.page(req);
  }

  @MessagePattern(QueryPatterns.report)
  report(@Payload() req: ReportRequest): Promise<CommitReportData> {
    return this.reportService.report(req);
  }

  @MessagePattern(QueryPatterns.tree)
  tree(@Payload() req: TreeRequest): Promise<TreeData> {
    return this.reportService.tree(req);
  }

  @MessagePattern(QueryPatterns.symbols)
  symbols(@Payload() req: SymbolPageRequest): Promise<SymbolPageData> {
    return this.symbolsService.page(req);
  }

  @MessagePattern(QueryPatterns.diff)
  diff(@Payload() req: DiffRequest): Promise<CommitDiffData> {
    return this.diffService.diff(req);
  }

  @MessagePattern(QueryPatterns.regionSeries)
  regionSeries(@Payload() req: SeriesRequest): Promise<RegionSeriesData> {
    return this.seriesService.regions(req);
  }

  @MessagePattern(QueryPatterns.sectionSeries)
  sectionSeries(@Payload() req: SeriesRequest): Promise<SectionSeriesData> {
    return this.seriesService.sections(req);
  }

  @MessagePattern(QueryPatterns.symbolHistory)
  symbolHistory(@Payload() req: HistoryRequest): Promise<HistoryData> {
    return this.historyService.symbol(req);
  }

  @MessagePattern(QueryPatterns.fileHistory)
  fileHistory(@Payload() req: HistoryRequest): Promise<HistoryData> {
    return this.historyService.file(req);
  }

  @MessagePattern(QueryPatterns.growers)
  growers(@Payload() req: GrowersRequest): Promise<GrowersData> {
    return this.growersService.growers(req);
  }
}
