import { Global, Module } from '@nestjs/common';
import { PublicProjects } from './public-projects.js';

/** Global: AccessGuard admits readers of public projects, and badges are only theirs. */
@Global()
@Module({ providers: [PublicProjects], exports: [PublicProjects] })
export class PublicProjectsModule {}
