import type { PrismaClient } from '@memtrail/db';
import { issueApiKey } from './api-key.service.js';

export interface ProjectWithKey {
  projectId: string;
  apiKeyId: string;
  /** The full API key, usable as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/**
 * Creates a project owned by an existing user (owner membership included) with one live API
 * key, in one transaction. For tests and seeding; the HTTP API goes through ProjectsService.
 */
export async function createProjectWithKey(
  prisma: PrismaClient,
  ownerId: string,
  name: string,
  description: string | null = null,
): Promise<ProjectWithKey> {
  return prisma.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: { name, description, ownerId, members: { create: { userId: ownerId, role: 'owner' } } },
      select: { id: true },
    });
    const key = await issueApiKey(tx, project.id);
    return { projectId: project.id, apiKeyId: key.apiKeyId, apiKey: key.key };
  });
}
