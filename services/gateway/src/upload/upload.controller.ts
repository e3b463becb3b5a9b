import { Controller, HttpCode, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import type { UploadSuccessResponse } from '@memtrail/contracts';
import type { Request } from 'express';
import { UploadAuthGuard } from './auth/upload-auth.guard.js';
import { UploaderOf, type Uploader } from './auth/uploader.js';
import { uploadBodyOf } from './upload-body.js';
import { UploadExceptionFilter } from './upload-exception.filter.js';
import { UploadRateLimitGuard } from './upload-rate-limit.guard.js';
import { UploadService } from './upload.service.js';

/** Where CIs upload: the MemBrowse CLI's paths (current and ≤ 1.0.6) and our versioned one. */
export const UPLOAD_PATHS = ['/upload', '/api/upload', '/api/v1/upload'];

@Controller()
@UseFilters(UploadExceptionFilter)
@UseGuards(UploadAuthGuard, UploadRateLimitGuard)
export class UploadController {
  constructor(private readonly uploads: UploadService) {}

  @Post(UPLOAD_PATHS.map((path) => path.slice(1)))
  @HttpCode(200)
  async upload(
    @UploaderOf() uploader: Uploader,
    @Req() req: Request,
  ): Promise<UploadSuccessResponse> {
    const data = await this.uploads.accept(uploader, uploadBodyOf(req));
    const message = data.is_overwritten
      ? `Report for ${data.target_name} @ ${data.commit_sha} replaced`
      : `Report for ${data.target_name} @ ${data.commit_sha} stored`;
    return { success: true, message, data };
  }
}
