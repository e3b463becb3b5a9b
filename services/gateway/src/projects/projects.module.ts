import { Module } from '@nestjs/common';
import { ApiKeyManagementModule } from '../api-keys/api-key-management.module.js';
import { OrganizationsModule } from '../organizations/organizations.module.js';
import { ProjectDeletionService } from './project-deletion.service.js';
import { ProjectKeysController } from './project-keys.controller.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';
import { TargetsController } from './targets.controller.js';
import { TargetsService } from './targets.service.js';

@Module({
  imports: [ApiKeyManagementModule, OrganizationsModule],
  controllers: [ProjectsController, ProjectKeysController, TargetsController],
  providers: [ProjectsService, ProjectDeletionService, TargetsService],
})
export class ProjectsModule {}
