import { Module } from '@nestjs/common';
import { CommitsService } from './commits.service.js';
import { DiffService } from './diff.service.js';
import { ExportService } from './export.service.js';
import { ExportsController } from './exports.controller.js';
import { GrowersService } from './growers.service.js';
import { HeadsService } from './heads.service.js';
import { HistoryService } from './history.service.js';
import { ReadsController } from './reads.controller.js';
import { ReportService } from './report.service.js';
import { ReportSymbolsCache } from './report-symbols.cache.js';
import { ReportsRepository } from './reports.repository.js';
import { SelectionRepository } from './selection.repository.js';
import { SeriesService } from './series.service.js';
import { SourceRoots } from './source-roots.js';
import { StoreModule } from '../store/store.module.js';
import { SymbolsService } from './symbols.service.js';
import { TimelineCache } from './timeline.cache.js';

@Module({
  imports: [StoreModule],
  controllers: [ReadsController, ExportsController],
  providers: [
    ReportsRepository,
    TimelineCache,
    SelectionRepository,
    SourceRoots,
    ReportSymbolsCache,
    HeadsService,
    CommitsService,
    ReportService,
    DiffService,
    ExportService,
    SeriesService,
    HistoryService,
    GrowersService,
    SymbolsService,
  ],
})
export class ReadsModule {}
