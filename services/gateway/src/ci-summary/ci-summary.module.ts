import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { SummaryRateLimitGuard } from './summary-rate-limit.guard.js';
import { SummaryController } from './summary.controller.js';
import { SummaryService } from './summary.service.js';

/**
 * What CI reads about a build: `GET /summary` of a commit across targets. Its changes against the
 * parent, budget alerts and region view are also the upload's answer (../upload).
 */
@Module({
  imports: [RateLimitModule],
  controllers: [SummaryController],
  providers: [SummaryService, SummaryRateLimitGuard],
})
export class CiSummaryModule {}
