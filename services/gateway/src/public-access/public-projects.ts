import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { PublicProject } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { isUuid } from '../access/access.service.js';

/**
 * Which projects anyone may read. Asked on every signed-out read and badge: plain SQL keeps
 * that off Prisma's per-query cost (SqlPool).
 */
@Injectable()
export class PublicProjects {
  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  async isPublic(projectId: string): Promise<boolean> {
    if (!isUuid(projectId)) return false;
    const { rows } = await this.sql.query({
      name: 'project-is-public',
      text: 'SELECT 1 FROM projects WHERE id = $1::uuid AND public AND deleted_at IS NULL',
      values: [projectId],
    });
    return rows.length === 1;
  }

  /** The project as signed-out readers see it; 404 unless it is public. */
  async get(projectId: string): Promise<PublicProject> {
    const { rows } = isUuid(projectId)
      ? await this.sql.query<PublicProject>(
          `SELECT id::text AS id, name, description, github_repository AS repository
           FROM projects WHERE id = $1::uuid AND public AND deleted_at IS NULL`,
          [projectId],
        )
      : { rows: [] };
    const row = rows[0];
    if (!row) throw new NotFoundException(`Project ${projectId} not found`);
    return { id: row.id, name: row.name, description: row.description, repository: row.repository };
  }
}
