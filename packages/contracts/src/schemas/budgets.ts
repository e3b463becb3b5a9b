import { z } from 'zod';
import { BUDGET_NAME_MAX, BUDGET_PATTERN_MAX } from '../budgets.js';
import { isoTime } from './common.js';

const limits = z
  .record(z.string().min(1), z.int().min(0))
  .describe('Region name → maximum used bytes');

/** A memory budget of one target: limits per region, optionally only on matching branches. */
export const Budget = z
  .object({
    id: z.string(),
    name: z.string(),
    branch_pattern: z
      .string()
      .nullable()
      .describe('Glob over branch names (* any run, ? one character); null: every branch'),
    limits,
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'Budget' });
export type Budget = z.infer<typeof Budget>;

/**
 * A budget as written. `validateBudgetInput` (budgets.ts) checks it first, with the sentences the
 * web form shows; the gateway then checks each region against the target's.
 */
export const BudgetInput = z
  .object({
    name: z.string().min(1).max(BUDGET_NAME_MAX),
    branch_pattern: z.string().max(BUDGET_PATTERN_MAX).nullable().optional(),
    limits,
  })
  .meta({ id: 'BudgetInput' });
export type BudgetInput = z.infer<typeof BudgetInput>;

export const BudgetsData = z.object({ budgets: z.array(Budget) }).meta({ id: 'BudgetsData' });
export type BudgetsData = z.infer<typeof BudgetsData>;
export const BudgetData = z.object({ budget: Budget }).meta({ id: 'BudgetData' });
export type BudgetData = z.infer<typeof BudgetData>;

/** One region of a budget at one commit. */
export const BudgetRegionState = z
  .object({
    region: z.string().describe('The region as the budget names it (merged name, see RegionPlan)'),
    display_name: z.string(),
    limit: z.int(),
    used: z
      .int()
      .nullable()
      .describe('Bytes in use at the commit; null when the commit has no such region'),
    exceeded_by: z.int().describe('Bytes over the limit (0 within it)'),
  })
  .meta({ id: 'BudgetRegionState' });
export type BudgetRegionState = z.infer<typeof BudgetRegionState>;

export const BudgetState = z
  .object({
    budget: Budget,
    applies: z
      .boolean()
      .describe(
        "The budget's branch pattern takes the commit's branch (every budget applies without one)",
      ),
    exceeded: z.boolean(),
    regions: z.array(BudgetRegionState),
  })
  .meta({ id: 'BudgetState' });
export type BudgetState = z.infer<typeof BudgetState>;

/** Every budget of the target at a commit. */
export const BudgetStatusData = z
  .object({
    commit_sha: z.string(),
    branch: z.string().nullable(),
    budgets: z.array(BudgetState),
  })
  .meta({ id: 'BudgetStatusData' });
export type BudgetStatusData = z.infer<typeof BudgetStatusData>;
