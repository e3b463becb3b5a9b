import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  success,
  validateBudgetInput,
  type BudgetData,
  type BudgetsData,
  type BudgetStatusData,
  type SuccessEnvelope,
  type TargetRef,
} from '@memtrail/contracts';
import type { Request } from 'express';
import { AccessGuard, Requires, Target } from '../access/access.guard.js';
import { AuditService } from '../audit/audit.service.js';
import { PublicReadable } from '../public-access/public-readable.js';
import { BudgetsService } from './budgets.service.js';
import { bodyOf, queryOf, type BodyOf, type QueryOf } from '../http/input.js';

/** `/api/{project}/{target}/budgets`: memory budgets evaluated on every upload of the target. */
@Controller('api/:project/:target/budgets')
@UseGuards(AccessGuard)
@Requires('project:configure')
export class BudgetsController {
  constructor(
    private readonly budgets: BudgetsService,
    private readonly audit: AuditService,
  ) {}

  @Get()
  @Requires('project:read')
  async list(@Target() target: TargetRef): Promise<SuccessEnvelope<BudgetsData>> {
    return success({ budgets: await this.budgets.list(target) });
  }

  /** `?sha=`: every budget's state at that commit (dashboard, commit and compare pages). */
  @Get('status')
  @Requires('project:read')
  @PublicReadable()
  async status(
    @Target() target: TargetRef,
    @Query(queryOf('GET /api/{project}/{target}/budgets/status'))
    q: QueryOf<'GET /api/{project}/{target}/budgets/status'>,
  ): Promise<SuccessEnvelope<BudgetStatusData>> {
    return success(await this.budgets.status(target, q.sha));
  }

  @Post()
  @HttpCode(201)
  async create(
    @Target() target: TargetRef,
    @Body(bodyOf('POST /api/{project}/{target}/budgets', validateBudgetInput))
    body: BodyOf<'POST /api/{project}/{target}/budgets'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<BudgetData>> {
    const budget = await this.budgets.create(target, body);
    await this.audit.record(
      {
        action: 'budget.created',
        projectId: target.projectId,
        details: { target: target.target, budget },
      },
      req,
    );
    return success({ budget });
  }

  @Put(':id')
  async update(
    @Target() target: TargetRef,
    @Param('id') id: string,
    @Body(bodyOf('PUT /api/{project}/{target}/budgets/{id}', validateBudgetInput))
    body: BodyOf<'PUT /api/{project}/{target}/budgets/{id}'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<BudgetData>> {
    const budget = await this.budgets.update(target, id, body);
    await this.audit.record(
      {
        action: 'budget.updated',
        projectId: target.projectId,
        details: { target: target.target, budget },
      },
      req,
    );
    return success({ budget });
  }

  @Delete(':id')
  async remove(
    @Target() target: TargetRef,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<null>> {
    await this.budgets.remove(target, id);
    await this.audit.record(
      {
        action: 'budget.deleted',
        projectId: target.projectId,
        details: { target: target.target, budget_id: id },
      },
      req,
    );
    return success(null);
  }
}
