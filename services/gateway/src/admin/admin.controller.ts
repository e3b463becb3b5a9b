import {
  Controller,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  DefaultValuePipe,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { success, type SuccessEnvelope } from '@memtrail/contracts';
import { AdminTokenGuard } from './admin-token.guard.js';
import { DeadLettersService, type FailedIngestion } from './dead-letters.service.js';

/** Operator endpoints: ingestion jobs that failed for good (dead letters) and their retry. */
@Controller('api/admin/ingest')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly deadLetters: DeadLettersService) {}

  @Get('failed')
  async failed(
    @Query('limit', new DefaultValuePipe(100), ParseIntPipe) limit: number,
  ): Promise<SuccessEnvelope<{ total: number; jobs: FailedIngestion[] }>> {
    return success(await this.deadLetters.list(Math.min(Math.max(limit, 1), 1000)));
  }

  @Post('failed/:jobId/retry')
  @HttpCode(202)
  async retry(@Param('jobId') jobId: string): Promise<SuccessEnvelope<{ job_id: string }>> {
    await this.deadLetters.retry(jobId);
    return success({ job_id: jobId });
  }
}
