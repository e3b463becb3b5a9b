import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { LivenessReport, ReadinessReport } from '@memtrail/contracts';
import type { Response } from 'express';
import { ReadinessService } from './readiness.service.js';

@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Liveness: answers as long as the process serves HTTP; never touches dependencies. */
  @Get('healthz')
  @HttpCode(200)
  healthz(): LivenessReport {
    return { status: 'ok', service: 'gateway', uptime_s: Math.round(process.uptime()) };
  }

  /** Readiness: 503 until Postgres, Redis, ClickHouse and the query service all answer. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
