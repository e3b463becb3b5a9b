import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { validateBudgetInput, type Budget, type BudgetInput } from '@memtrail/contracts';
import { PrismaClient, Prisma, type Budget as BudgetRow } from '@memtrail/db';
import { ProjectAccessService } from '../projects/project-access.service.js';

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

/** Budgets per target, for members of the target's project; evaluated on every upload. */
@Injectable()
export class BudgetsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(ProjectAccessService) private readonly access: ProjectAccessService,
  ) {}

  private async targetId(userId: string, projectId: string, target: string): Promise<string> {
    await this.access.require(userId, projectId);
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { id: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    return row.id;
  }

  async list(userId: string, projectId: string, target: string): Promise<Budget[]> {
    const targetId = await this.targetId(userId, projectId, target);
    const rows = await this.prisma.budget.findMany({
      where: { targetId },
      orderBy: { name: 'asc' },
    });
    return rows.map(toBudget);
  }

  async create(userId: string, projectId: string, target: string, body: unknown): Promise<Budget> {
    const data = parse(body);
    const targetId = await this.targetId(userId, projectId, target);
    return toBudget(
      await this.unique(data.name, () =>
        this.prisma.budget.create({ data: { ...data, targetId } }),
      ),
    );
  }

  async update(
    userId: string,
    projectId: string,
    target: string,
    id: string,
    body: unknown,
  ): Promise<Budget> {
    const data = parse(body);
    const targetId = await this.targetId(userId, projectId, target);
    await this.existing(targetId, id);
    return toBudget(
      await this.unique(data.name, () => this.prisma.budget.update({ where: { id }, data })),
    );
  }

  async remove(userId: string, projectId: string, target: string, id: string): Promise<void> {
    const targetId = await this.targetId(userId, projectId, target);
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
