import { Module, type DynamicModule } from '@nestjs/common';
import { WorkerConfig } from './config.js';
import { IngestReportService } from './ingest/ingest-report.service.js';
import { BlockCopier } from './ingest/block-copier.js';
import { BlockWriter } from './ingest/block-writer.js';
import { ProjectPurgeConsumer } from './ingest/project-purge-consumer.js';
import { ReportsConsumer } from './ingest/reports-consumer.js';
import { ReportsSweeper } from './ingest/reports-sweeper.js';
import { StoredBlocks } from './ingest/stored-blocks.js';
import { StoredReports } from './ingest/stored-reports.js';
import { InfraModule } from './infra/infra.module.js';

@Module({})
export class AppModule {
  static register(config: WorkerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [InfraModule.register(config)],
      providers: [
        BlockWriter,
        StoredBlocks,
        BlockCopier,
        StoredReports,
        IngestReportService,
        ReportsConsumer,
        ReportsSweeper,
        ProjectPurgeConsumer,
      ],
    };
  }
}
