/**
 * Prisma `project.create` data for a project owned by an existing user in an organisation of
 * its own (the user its owner), for tests that need a project row and nothing else about it.
 */
export function projectData(name: string, ownerId: string) {
  return {
    name,
    owner: { connect: { id: ownerId } },
    organization: {
      create: { name, members: { create: { userId: ownerId, role: 'owner' as const } } },
    },
  };
}
