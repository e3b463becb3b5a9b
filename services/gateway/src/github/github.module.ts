import { Module } from '@nestjs/common';
import { GithubApi } from './github-api.js';

@Module({ providers: [GithubApi], exports: [GithubApi] })
export class GithubModule {}
