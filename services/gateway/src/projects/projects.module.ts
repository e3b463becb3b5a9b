import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ProjectAccessService } from './project-access.service.js';
import { ProjectDeletionService } from './project-deletion.service.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';
import { TargetsController } from './targets.controller.js';
import { TargetsService } from './targets.service.js';

@Module({
  imports: [AuthModule],
  controllers: [ProjectsController, TargetsController],
  providers: [ProjectAccessService, ProjectsService, ProjectDeletionService, TargetsService],
  exports: [ProjectAccessService],
})
export class ProjectsModule {}
