import { Module } from '@nestjs/common';
import { QueryClient } from './query-client.service.js';
import { ReadsController } from './reads.controller.js';

/** Reads answered by the query service (commit chains, reports, diffs, series, history). */
@Module({
  controllers: [ReadsController],
  providers: [QueryClient],
})
export class ReadsModule {}
