import { Prisma } from '@memtrail/db';

/**
 * Longest chain walked. Parent links come from uploads, so a hand-made upload could link a
 * commit back into its own history; the walk stops there (see `walk`), and this bounds it.
 */
export const MAX_CHAIN = 100_000;

/**
 * `WITH RECURSIVE … walk(depth, id)`: the reports reached from `sha` by parent links, `sha`
 * itself at depth 0. One index lookup per step on commits (project_id, sha) and reports
 * (target_id, commit_id); only ids travel through the recursion, details are joined after.
 * A link back into the chain would repeat it: the walk is cut at the first repeated report.
 */
export function chainWalk(projectId: string, targetId: string, sha: string): Prisma.Sql {
  return Prisma.sql`
    WITH RECURSIVE chain AS (
      SELECT r.id, r.parent_sha, 0 AS depth
      FROM commits c
      JOIN reports r ON r.commit_id = c.id AND r.target_id = ${targetId}::uuid
      WHERE c.project_id = ${projectId}::uuid AND c.sha = ${sha}
      UNION ALL
      SELECT r.id, r.parent_sha, chain.depth + 1
      FROM chain
      JOIN commits c ON c.project_id = ${projectId}::uuid AND c.sha = chain.parent_sha
      JOIN reports r ON r.commit_id = c.id AND r.target_id = ${targetId}::uuid
      WHERE chain.depth < ${MAX_CHAIN}
    ),
    repeats AS (
      SELECT depth, row_number() OVER (PARTITION BY id ORDER BY depth) AS seen FROM chain
    ),
    cut AS (SELECT coalesce(min(depth), ${MAX_CHAIN + 1}) AS at FROM repeats WHERE seen > 1),
    walk AS (SELECT chain.depth, chain.id FROM chain, cut WHERE chain.depth < cut.at)`;
}
