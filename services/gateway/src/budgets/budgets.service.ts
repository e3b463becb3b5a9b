import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  validateBudgetInput,
  type Budget,
  type BudgetInput,
  type TargetRef,
} from '@memtrail/contracts';
import { PrismaClient, Prisma, type Budget as BudgetRow } from '@memtrail/db';

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

function parse(body: unknown): {
  name: string;
  branchPattern: string | null;
  limits: Record<string, number>;
} {
  const problem = validateBudgetInput(body);
  if (problem) throw new BadRequestException(problem);
  const input = body as BudgetInput;
  return {
    name: input.name.trim(),
    branchPattern: input.branch_pattern?.trim() || null,
    limits: input.limits,
  };
}

/**
 * Budgets per target, evaluated on every upload. Callers have checked that the user is a member
 * of the target's project (AccessGuard).
 */
@Injectable()
export class BudgetsService {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  private async targetId({ projectId, target }: TargetRef): Promise<string> {
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { id: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    return row.id;
  }

  async list(ref: TargetRef): Promise<Budget[]> {
    const targetId = await this.targetId(ref);
    const rows = await this.prisma.budget.findMany({
      where: { targetId },
      orderBy: { name: 'asc' },
    });
    return rows.map(toBudget);
  }

  async create(ref: TargetRef, body: unknown): Promise<Budget> {
    const data = parse(body);
    const targetId = await this.targetId(ref);
    return toBudget(
      await this.unique(data.name, () =>
        this.prisma.budget.create({ data: { ...data, targetId } }),
      ),
    );
  }

  async update(ref: TargetRef, id: string, body: unknown): Promise<Budget> {
    const data = parse(body);
    const targetId = await this.targetId(ref);
    await this.existing(targetId, id);
    return toBudget(
      await this.unique(data.name, () => this.prisma.budget.update({ where: { id }, data })),
    );
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
