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
  type TargetRef,
} from '@memtrail/contracts';
import { JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import { ProjectAccessGuard, Target } from '../projects/project-access.guard.js';
import { BudgetsService } from './budgets.service.js';

/** `/api/{project}/{target}/budgets`: memory budgets evaluated on every upload of the target. */
@Controller('api/:project/:target/budgets')
@UseGuards(JwtAuthGuard, ProjectAccessGuard)
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get()
  async list(@Target() target: TargetRef): Promise<SuccessEnvelope<BudgetsData>> {
    return success({ budgets: await this.budgets.list(target) });
  }

  @Post()
  @HttpCode(201)
  async create(
    @Target() target: TargetRef,
    @Body() body: unknown,
  ): Promise<SuccessEnvelope<BudgetData>> {
    return success({ budget: await this.budgets.create(target, body) });
  }

  @Put(':id')
  async update(
    @Target() target: TargetRef,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<SuccessEnvelope<BudgetData>> {
    return success({ budget: await this.budgets.update(target, id, body) });
  }

  @Delete(':id')
  async remove(
    @Target() target: TargetRef,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<null>> {
    await this.budgets.remove(target, id);
    return success(null);
  }
}
