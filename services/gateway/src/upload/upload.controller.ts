import { Controller, HttpCode, Inject, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import type { UploadSuccessResponse } from '@memtrail/contracts';
import { ServiceMetrics } from '@memtrail/metrics';
import type { Request } from 'express';
import { GatewayConfig } from '../config.js';
import { UploadAuthGuard } from './auth/upload-auth.guard.js';
import { UploaderOf, type Uploader } from './auth/uploader.js';
import { admissionTicket, UploadAdmissionGuard } from './upload-admission.guard.js';
import { readUploadBody } from './upload-body.js';
import { UploadExceptionFilter } from './upload-exception.filter.js';
import { UploadRateLimitGuard } from './upload-rate-limit.guard.js';
import { UploadService } from './upload.service.js';

/** Where CIs upload: the MemBrowse CLI's paths (current and ≤ 1.0.6) and our versioned one. */
export const UPLOAD_PATHS = ['/upload', '/api/upload', '/api/v1/upload'];

@Controller()
@UseFilters(UploadExceptionFilter)
// In this order: who uploads, their rate, then room in the process — all before the body is read.
@UseGuards(UploadAuthGuard, UploadRateLimitGuard, UploadAdmissionGuard)
export class UploadController {
  constructor(
    private readonly uploads: UploadService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {}

  @Post(UPLOAD_PATHS.map((path) => path.slice(1)))
  @HttpCode(200)
  async upload(
    @UploaderOf() uploader: Uploader,
    @Req() req: Request,
  ): Promise<UploadSuccessResponse> {
    const reading = this.metrics.uploadPhaseDuration.startTimer({ phase: 'body' });
    const body = await readUploadBody(req, this.config.UPLOAD_MAX_BYTES, admissionTicket(req));
    reading();
    const data = await this.uploads.accept(uploader, body);
    const message = data.is_overwritten
      ? `Report for ${data.target_name} @ ${data.commit_sha} replaced`
      : `Report for ${data.target_name} @ ${data.commit_sha} stored`;
    return { success: true, message, data };
  }
}
