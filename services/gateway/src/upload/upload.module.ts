import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ReportStore } from './report-store.js';
import { reportsQueueProvider } from './reports-queue.provider.js';
import { SummaryController } from './summary.controller.js';
import { SummaryService } from './summary.service.js';
import { UploadRateLimitGuard } from './upload-rate-limit.guard.js';
import { UploadController } from './upload.controller.js';
import { UploadService } from './upload.service.js';

@Module({
  imports: [RateLimitModule],
  controllers: [UploadController, SummaryController],
  providers: [
    UploadService,
    ReportStore,
    SummaryService,
    UploadRateLimitGuard,
    reportsQueueProvider,
  ],
  exports: [reportsQueueProvider],
})
export class UploadModule {}
