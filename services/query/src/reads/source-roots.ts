import { Inject, Injectable } from '@nestjs/common';
import type { RegionPlan } from '@memtrail/contracts';
import { SymbolStore, type ReportVersion } from '../store/symbol-store.js';

/**
 * The folder stripped from a report's source paths: the region configuration's `source_root`,
 * else the build folder found in the report's own paths when it was stored (its record).
 */
@Injectable()
export class SourceRoots {
  constructor(@Inject(SymbolStore) private readonly store: SymbolStore) {}

  of(plan: RegionPlan, version: ReportVersion): Promise<string> {
    return plan.sourceRoot ? Promise.resolve(plan.sourceRoot) : this.store.sourceRoot(version);
  }
}
