import { Module } from '@nestjs/common';
import { ServiceMetrics } from '@memtrail/metrics';
import { GatewayConfig } from '../config.js';
import { GithubModule } from '../github/github.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { OidcTokens } from './auth/oidc/oidc-tokens.js';
import { OidcUploads } from './auth/oidc/oidc-uploads.js';
import { PullRequests } from './auth/pull-requests.js';
import { TokenlessUploads } from './auth/tokenless/tokenless-uploads.js';
import { UploadAuthGuard } from './auth/upload-auth.guard.js';
import { DecodePool } from './decode/decode-pool.js';
import { KnownVersions } from './known-versions.js';
import { ReportStore } from './report-store.js';
import { reportsQueueProvider } from './reports-queue.provider.js';
import { UploadAdmission } from './upload-admission.js';
import { UploadAdmissionGuard } from './upload-admission.guard.js';
import { UploadRateLimitGuard } from './upload-rate-limit.guard.js';
import { UploadController } from './upload.controller.js';
import { UploadService } from './upload.service.js';

@Module({
  imports: [RateLimitModule, GithubModule],
  controllers: [UploadController],
  providers: [
    UploadService,
    ReportStore,
    KnownVersions,
    {
      provide: DecodePool,
      useFactory: (config: GatewayConfig, metrics: ServiceMetrics) =>
        new DecodePool(
          config.UPLOAD_DECODE_THREADS,
          { maxBytes: config.UPLOAD_MAX_BYTES },
          {
            // Admission lets no more uploads in; this bound holds should that ever change.
            maxQueue: config.UPLOAD_INFLIGHT_MAX,
            observe: (phase, seconds) => metrics.uploadPhaseDuration.observe({ phase }, seconds),
          },
        ),
      inject: [GatewayConfig, ServiceMetrics],
    },
    {
      provide: UploadAdmission,
      useFactory: (config: GatewayConfig) =>
        new UploadAdmission({
          maxUploads: config.UPLOAD_INFLIGHT_MAX,
          maxBytes: config.UPLOAD_INFLIGHT_MAX_BYTES,
        }),
      inject: [GatewayConfig],
    },
    UploadAuthGuard,
    TokenlessUploads,
    OidcUploads,
    OidcTokens,
    PullRequests,
    UploadRateLimitGuard,
    UploadAdmissionGuard,
    reportsQueueProvider,
  ],
  exports: [reportsQueueProvider],
})
export class UploadModule {}
