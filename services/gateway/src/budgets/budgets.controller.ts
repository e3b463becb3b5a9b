import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  UseGuards,
} from '@nestjs/common';
import {
  success,
  type BudgetData,
  type BudgetsData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import { CurrentUser, JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { BudgetsService } from './budgets.service.js';

/** `/api/{project}/{target}/budgets`: memory budgets evaluated on every upload of the target. */
@Controller('api/:project/:target/budgets')
@UseGuards(JwtAuthGuard)
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get()
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
    @Param('target') target: string,
  ): Promise<SuccessEnvelope<BudgetsData>> {
    return success({ budgets: await this.budgets.list(user.userId, project, target) });
  }

  @Post()
  @HttpCode(201)
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
    @Param('target') target: string,
    @Body() body: unknown,
  ): Promise<SuccessEnvelope<BudgetData>> {
    return success({ budget: await this.budgets.create(user.userId, project, target, body) });
  }

  @Put(':id')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
    @Param('target') target: string,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<SuccessEnvelope<BudgetData>> {
    return success({ budget: await this.budgets.update(user.userId, project, target, id, body) });
  }

  @Delete(':id')
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
    @Param('target') target: string,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<null>> {
    await this.budgets.remove(user.userId, project, target, id);
    return success(null);
  }
}
