import type { SeenRegion } from '@memtrail/contracts';
import type { SqlPool } from '@memtrail/db';

/**
 * Every region name a target's reports have had, each with its figures in the newest report
 * that has it (from the totals stored with each report), in address order. What budgets may
 * name and what the region config page offers.
 */
export async function regionsSeen(sql: SqlPool, targetId: string): Promise<SeenRegion[]> {
  const { rows } = await sql.query<{
    name: string;
    address: number;
    limit_size: number;
    used_size: number;
    last_seen: Date | null;
  }>(
    `SELECT DISTINCT ON (region.key) region.key AS name,
           coalesce((region.value->>'address')::float8, 0) AS address,
           coalesce((region.value->>'limit_size')::float8, 0) AS limit_size,
           coalesce((region.value->>'used_size')::float8, 0) AS used_size,
           c.committed_at AS last_seen
    FROM reports r
    JOIN commits c ON c.id = r.commit_id
    CROSS JOIN LATERAL jsonb_each(
      CASE WHEN jsonb_typeof(r.region_totals) = 'object' THEN r.region_totals ELSE '{}' END
    ) AS region
    WHERE r.target_id = $1::uuid
    ORDER BY region.key, c.committed_at DESC NULLS LAST, r.created_at DESC`,
    [targetId],
  );
  return rows
    .map((row) => ({
      name: row.name,
      address: Number(row.address),
      limit_size: Number(row.limit_size),
      used_size: Number(row.used_size),
      last_seen: row.last_seen?.toISOString() ?? null,
    }))
    .sort((a, b) => a.address - b.address || (a.name < b.name ? -1 : 1));
}
