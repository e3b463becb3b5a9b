import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  QueryPatterns,
  serialized,
  type Serialized,
  type CommitDiffData,
  type CommitPageData,
  type CommitReportData,
  type CommitsRequest,
  type DiffExportRequest,
  type DiffRequest,
  type ExportReply,
  type GrowersData,
  type GrowersRequest,
  type HeadsData,
  type HistoryData,
  type HistoryRequest,
  type RegionSeriesData,
  type ReportExportRequest,
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
import { ExportService } from './export.service.js';
import { GrowersService } from './growers.service.js';
import { HeadsService } from './heads.service.js';
import { HistoryService } from './history.service.js';
import { ReportService } from './report.service.js';
import { SeriesService } from './series.service.js';
import { SymbolsService } from './symbols.service.js';

/**
 * Every read the gateway forwards; requests arrive parsed and membership-checked. Answers go
 * back serialised (`Serialized`), exports as the file to send.
 */
@Controller()
export class ReadsController {
  constructor(
    @Inject(HeadsService) private readonly headsService: HeadsService,
    @Inject(CommitsService) private readonly commitsService: CommitsService,
    @Inject(ReportService) private readonly reportService: ReportService,
    @Inject(DiffService) private readonly diffService: DiffService,
    @Inject(ExportService) private readonly exportService: ExportService,
    @Inject(SeriesService) private readonly seriesService: SeriesService,
    @Inject(HistoryService) private readonly historyService: HistoryService,
    @Inject(GrowersService) private readonly growersService: GrowersService,
    @Inject(SymbolsService) private readonly symbolsService: SymbolsService,
  ) {}

  @MessagePattern(QueryPatterns.heads)
  async heads(@Payload() req: TargetRef): Promise<Serialized<HeadsData>> {
    return serialized(await this.headsService.heads(req));
  }

  @MessagePattern(QueryPatterns.commits)
  async commits(@Payload() req: CommitsRequest): Promise<Serialized<CommitPageData>> {
    return serialized(await this.commitsService.page(req));
  }

  @MessagePattern(QueryPatterns.report)
  async report(@Payload() req: ReportRequest): Promise<Serialized<CommitReportData>> {
    return serialized(await this.reportService.report(req));
  }

  @MessagePattern(QueryPatterns.tree)
  async tree(@Payload() req: TreeRequest): Promise<Serialized<TreeData>> {
    return serialized(await this.reportService.tree(req));
  }

  @MessagePattern(QueryPatterns.symbols)
  async symbols(@Payload() req: SymbolPageRequest): Promise<Serialized<SymbolPageData>> {
    return serialized(await this.symbolsService.page(req));
  }

  @MessagePattern(QueryPatterns.reportExport)
  reportExport(@Payload() req: ReportExportRequest): Promise<ExportReply> {
    return this.exportService.report(req);
  }

  @MessagePattern(QueryPatterns.diff)
  async diff(@Payload() req: DiffRequest): Promise<Serialized<CommitDiffData>> {
    return serialized(await this.diffService.diff(req));
  }

  @MessagePattern(QueryPatterns.diffExport)
  diffExport(@Payload() req: DiffExportRequest): Promise<ExportReply> {
    return this.exportService.diff(req);
  }

  @MessagePattern(QueryPatterns.regionSeries)
  async regionSeries(@Payload() req: SeriesRequest): Promise<Serialized<RegionSeriesData>> {
    return serialized(await this.seriesService.regions(req));
  }

  @MessagePattern(QueryPatterns.sectionSeries)
  async sectionSeries(@Payload() req: SeriesRequest): Promise<Serialized<SectionSeriesData>> {
    return serialized(await this.seriesService.sections(req));
  }

  @MessagePattern(QueryPatterns.symbolHistory)
  async symbolHistory(@Payload() req: HistoryRequest): Promise<Serialized<HistoryData>> {
    return serialized(await this.historyService.symbol(req));
  }

  @MessagePattern(QueryPatterns.fileHistory)
  async fileHistory(@Payload() req: HistoryRequest): Promise<Serialized<HistoryData>> {
    return serialized(await this.historyService.file(req));
  }

  @MessagePattern(QueryPatterns.growers)
  async growers(@Payload() req: GrowersRequest): Promise<Serialized<GrowersData>> {
    return serialized(await this.growersService.growers(req));
  }
}
