import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { sameRepository } from '@memtrail/contracts';
import { GithubApi, type GithubPullRequest } from '../../github/github-api.js';
import type { ValidUpload } from '../validate-upload.js';
import { PULL_REQUEST_POLICY, type UploadGrant } from './uploader.js';

/** A project's link to its GitHub repository, as keyless uploads check it. */
export interface LinkedProject {
  id: string;
  repository: string;
  /** GitHub's id of the repository when it was linked, if GitHub showed it then. */
  repositoryId: bigint | null;
}

/**
 * The check both keyless pull-request uploads share: GitHub must show the pull request in the
 * project's repository, open, with the uploaded commit as its head. The upload is then stored
 * under the head's `owner:branch` label, with GitHub's number, title and author, never the
 * client's, and may only add a report to an existing target.
 */
@Injectable()
export class PullRequests {
  constructor(@Inject(GithubApi) private readonly github: GithubApi) {}

  async verify(
    project: LinkedProject,
    number: number,
    commitSha: string,
    options: { requirePublic: boolean },
  ): Promise<GithubPullRequest> {
    const repo = project.repository;
    let pull = await this.github.pullRequest(repo, number);
    // A cached answer predates the latest push: ask again before refusing the new head.
    if (pull && pull.headSha !== commitSha)
      pull = await this.github.pullRequest(repo, number, true);
    const refuse = (reason: string) => new UnauthorizedException(reason);
    if (!pull) throw refuse(`Pull request #${number} not found in ${repo}`);
    const base = pull.base;
    if (project.repositoryId !== null && BigInt(base.id) !== project.repositoryId) {
      throw refuse(
        `${repo} is no longer the repository the project linked (GitHub id ${base.id}, linked ` +
          `${project.repositoryId}); link it again in the project settings`,
      );
    }
    if (project.repositoryId === null && !sameRepository(base.fullName, repo)) {
      throw refuse(`Pull request #${number} belongs to ${base.fullName}, not ${repo}`);
    }
    if (options.requirePublic && base.private) {
      throw refuse(`${repo} is not a public repository; tokenless uploads need one`);
    }
    if (pull.state !== 'open') throw refuse(`Pull request #${number} of ${repo} is not open`);
    if (pull.headSha !== commitSha) {
      throw refuse(
        `Commit ${commitSha} is not the head of pull request #${number} of ${repo} ` +
          `(its head is ${pull.headSha})`,
      );
    }
    return pull;
  }

  grant(projectId: string, upload: ValidUpload, pull: GithubPullRequest): UploadGrant {
    return {
      projectId,
      upload: {
        ...upload,
        branch: pull.headLabel,
        pr: {
          number: String(pull.number),
          name: pull.title,
          authorName: pull.author,
          authorEmail: null,
        },
      },
      policy: PULL_REQUEST_POLICY,
    };
  }
}
