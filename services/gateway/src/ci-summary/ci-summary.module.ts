import { Module } from '@nestjs/common';
import { SummaryController } from './summary.controller.js';
import { SummaryService } from './summary.service.js';

/**
 * What CI reads about a build: `GET /summary` of a commit across targets. Its changes against the
 * parent, budget alerts and region view are also the upload's answer (../upload).
 */
@Module({
  controllers: [SummaryController],
  providers: [SummaryService],
})
export class CiSummaryModule {}
