import { Inject, Injectable } from '@nestjs/common';
import type { RegionPlan } from '@memtrail/contracts';
import { buildRoot } from '@memtrail/report';
import { SymbolStore, type ReportVersion } from './symbol-store.js';

/** Report versions whose build folder is remembered (a path or two each). */
const REMEMBERED = 4096;

/**
 * The folder stripped from a report's source paths: the region configuration's `source_root`,
 * else the build folder found in the report's own paths. A report version never changes, so
 * what was found is remembered.
 */
@Injectable()
export class SourceRoots {
  private readonly found = new Map<string, Promise<string>>();

  constructor(@Inject(SymbolStore) private readonly store: SymbolStore) {}

  of(plan: RegionPlan, version: ReportVersion): Promise<string> {
    if (plan.sourceRoot) return Promise.resolve(plan.sourceRoot);
    const key = `${version.reportId}/${version.version}`;
    let root = this.found.get(key);
    if (!root) {
      root = this.store.sourceFiles(version).then(buildRoot);
      root.catch(() => this.found.delete(key));
      this.found.set(key, root);
      if (this.found.size > REMEMBERED) this.found.delete(this.found.keys().next().value!);
    }
    return root;
  }

  /** The same for a report whose paths are at hand, remembered for later reads. */
  fromPaths(plan: RegionPlan, version: ReportVersion, paths: Iterable<string>): string {
    if (plan.sourceRoot) return plan.sourceRoot;
    const root = buildRoot(paths);
    this.found.set(`${version.reportId}/${version.version}`, Promise.resolve(root));
    return root;
  }
}
