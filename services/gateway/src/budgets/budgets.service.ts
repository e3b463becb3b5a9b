import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  RegionPlan,
  type Budget,
  type BudgetInput,
  type BudgetStatusData,
  type TargetRef,
} from '@memtrail/contracts';
import { PrismaClient, Prisma, SqlPool, type Budget as BudgetRow } from '@memtrail/db';
import { regionsSeen } from '../projects/target-regions.js';
import { branchMatches } from '../ci-summary/budget-alerts.js';
import { shownRegions } from '../ci-summary/region-view.js';
import { storedTotals } from '../ci-summary/totals.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toBudget(row: BudgetRow): Budget {
  return {
    id: row.id,
    name: row.name,
    branch_pattern: row.branchPattern,
    limits: row.limits as Record<string, number>,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

interface TargetRow {
  id: string;
  name: string;
  plan: RegionPlan;
}

/**
 * A budget (checked by its schema) checked against the target's regions: each limit must name
 * a region its reports have (by its name in the reports or a name merged into it), and is kept
 * under the merged name the region configuration shows it as.
 */
function parse(
  input: BudgetInput,
  target: TargetRow,
  regions: string[],
): { name: string; branchPattern: string | null; limits: Record<string, number> } {
  const known = new Set(regions.map((region) => target.plan.canonical(region)));
  const limits: Record<string, number> = {};
  for (const [region, bytes] of Object.entries(input.limits)) {
    const name = target.plan.canonical(region.trim());
    if (!known.has(name)) {
      const list = target.plan.sort([...known].map((known) => ({ name: known })));
      throw new BadRequestException(
        `Budget region ${region} is not a region of target ${target.name} (its regions: ${
          list.map((r) => r.name).join(', ') || 'none uploaded yet'
        })`,
      );
    }
    if (name in limits) {
      throw new BadRequestException(`Budget limits name region ${name} twice`);
    }
    limits[name] = bytes;
  }
  return {
    name: input.name.trim(),
    branchPattern: input.branch_pattern?.trim() || null,
    limits,
  };
}

/**
 * Budgets per target, evaluated on every upload. Callers have checked that the user is a member
 * of the target's project (AccessGuard).
 */
@Injectable()
export class BudgetsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
  ) {}

  private async target({ projectId, target }: TargetRef): Promise<TargetRow> {
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { id: true, name: true, regionConfig: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    return { id: row.id, name: row.name, plan: RegionPlan.of(row.regionConfig) };
  }

  private async targetId(ref: TargetRef): Promise<string> {
    return (await this.target(ref)).id;
  }

  private async input(ref: TargetRef, body: BudgetInput) {
    const target = await this.target(ref);
    const regions = (await regionsSeen(this.sql, target.id)).map((region) => region.name);
    return { targetId: target.id, data: parse(body, target, regions) };
  }

  async list(ref: TargetRef): Promise<Budget[]> {
    const targetId = await this.targetId(ref);
    const rows = await this.prisma.budget.findMany({
      where: { targetId },
      orderBy: { name: 'asc' },
    });
    return rows.map(toBudget);
  }

  async create(ref: TargetRef, body: BudgetInput): Promise<Budget> {
    const { targetId, data } = await this.input(ref, body);
    return toBudget(
      await this.unique(data.name, () =>
        this.prisma.budget.create({ data: { ...data, targetId } }),
      ),
    );
  }

  async update(ref: TargetRef, id: string, body: BudgetInput): Promise<Budget> {
    const { targetId, data } = await this.input(ref, body);
    await this.existing(targetId, id);
    return toBudget(
      await this.unique(data.name, () => this.prisma.budget.update({ where: { id }, data })),
    );
  }

  /**
   * Every budget of the target at one commit: whether it applies to the commit's branch, and
   * each region's use against its limit, from the totals stored with the report and merged as
   * the region configuration shows them (as uploads evaluate budgets).
   */
  async status(ref: TargetRef, sha: string): Promise<BudgetStatusData> {
    const target = await this.target(ref);
    const [report, rows] = await Promise.all([
      this.prisma.report.findFirst({
        where: { targetId: target.id, commit: { projectId: ref.projectId, sha } },
        select: { branch: true, regionTotals: true, sectionTotals: true },
      }),
      this.prisma.budget.findMany({ where: { targetId: target.id }, orderBy: { name: 'asc' } }),
    ]);
    if (!report)
      throw new NotFoundException(`Commit ${sha} has no report for target ${ref.target}`);
    const regions = shownRegions(
      target.plan,
      storedTotals(report.regionTotals, report.sectionTotals),
    );
    return {
      commit_sha: sha,
      branch: report.branch,
      budgets: rows.map((row) => {
        const budget = toBudget(row);
        const states = Object.entries(budget.limits).map(([region, limit]) => {
          const used = regions[target.plan.canonical(region)]?.used_size ?? null;
          return {
            region,
            display_name: target.plan.displayName(region),
            limit,
            used,
            exceeded_by: used === null ? 0 : Math.max(0, used - limit),
          };
        });
        const applies = branchMatches(budget.branch_pattern, report.branch);
        return {
          budget,
          applies,
          exceeded: applies && states.some((state) => state.exceeded_by > 0),
          regions: states,
        };
      }),
    };
  }

  async remove(ref: TargetRef, id: string): Promise<void> {
    const targetId = await this.targetId(ref);
    await this.existing(targetId, id);
    await this.prisma.budget.delete({ where: { id } });
  }

  private async existing(targetId: string, id: string): Promise<void> {
    const found = UUID.test(id)
      ? await this.prisma.budget.findFirst({ where: { id, targetId }, select: { id: true } })
      : null;
    if (!found) throw new NotFoundException(`Budget ${id} not found`);
  }

  /** Budget names are unique per target: a clash is the caller's 409, not a 500. */
  private async unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new ConflictException(`A budget named "${name}" already exists for this target`);
      }
      throw error;
    }
  }
}
