import type { PrismaClient } from '@memtrail/db';
import { personalOrganizationId } from '../organizations/personal-organization.js';
import { issueApiKey } from './api-key.service.js';

export interface ProjectWithKey {
  projectId: string;
  apiKeyId: string;
  /** The full API key, usable as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/**
 * Creates a project in an existing user's personal organisation (created if needed) with one
 * live API key, in one transaction. For tests and seeding; the HTTP API goes through
 * ProjectsService.
 */
export async function createProjectWithKey(
  prisma: PrismaClient,
  ownerId: string,
  name: string,
  description: string | null = null,
): Promise<ProjectWithKey> {
  return prisma.$transaction(async (tx) => {
    const organizationId = await personalOrganizationId(tx, ownerId);
    const project = await tx.project.create({
      data: { name, description, ownerId, organizationId },
      select: { id: true },
    });
    const key = await issueApiKey(tx, { projectId: project.id });
    return { projectId: project.id, apiKeyId: key.apiKeyId, apiKey: key.key };
  });
}
