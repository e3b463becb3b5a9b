import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { QueryClient } from './query-client.service.js';
import { ReadsController } from './reads.controller.js';

/** Reads answered by the query service (commit chains, reports, diffs, series, history). */
@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [ReadsController],
  providers: [QueryClient],
})
export class ReadsModule {}
