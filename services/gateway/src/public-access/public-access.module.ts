import { Module } from '@nestjs/common';
import { GithubModule } from '../github/github.module.js';
import { PublicAccessController, PublicProjectController } from './public-access.controller.js';
import { PublicAccessService } from './public-access.service.js';

/** The public-access project setting and what signed-out readers learn of a public project. */
@Module({
  imports: [GithubModule],
  controllers: [PublicAccessController, PublicProjectController],
  providers: [PublicAccessService],
})
export class PublicAccessModule {}
