import { Module } from '@nestjs/common';
import { reportsQueueProvider } from './reports-queue.provider.js';
import { UploadRateLimitGuard } from './upload-rate-limit.guard.js';
import { UploadController } from './upload.controller.js';
import { UploadService } from './upload.service.js';

@Module({
  controllers: [UploadController],
  providers: [UploadService, UploadRateLimitGuard, reportsQueueProvider],
})
export class UploadModule {}
