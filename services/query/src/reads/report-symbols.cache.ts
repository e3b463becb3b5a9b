import { Inject, Injectable } from '@nestjs/common';
import type { RegionPlan, ReportSymbolRow, SymbolSortKey } from '@memtrail/contracts';
import { relativeSource } from '@memtrail/report';
import { QueryConfig } from '../config.js';
import { SourceRoots } from './source-roots.js';
import { SymbolStore, type ReportVersion } from '../store/symbol-store.js';

/** Bytes of a row's fixed fields and object overhead, on top of its strings (2 bytes a char). */
const ROW_OVERHEAD = 160;

const collate = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What a symbols table sorts by: the name column shows the demangled name when there is one. */
const SORT_VALUE: Record<SymbolSortKey, (row: ReportSymbolRow) => string | number> = {
  name: (row) => row.full_name || row.name,
  size: (row) => row.size,
  address: (row) => row.address,
  type: (row) => row.type,
  section: (row) => row.section,
  region: (row) => row.region,
  source_file: (row) => row.source_file,
};

/**
 * A report's symbols as shown (regions as the region configuration names them, source paths
 * relative to the build folder), with the orders and search text built on first use.
 */
export class ReportSymbols {
  private readonly orders = new Map<SymbolSortKey, Uint32Array>();
  private searchText: string[] | null = null;

  constructor(
    /** In address order, as stored. */
    readonly rows: ReportSymbolRow[],
    readonly sourceRoot: string,
  ) {}

  /** Estimated heap bytes, for the cache's bound. */
  get bytes(): number {
    let bytes = 0;
    for (const r of this.rows) {
      bytes +=
        ROW_OVERHEAD +
        2 *
          (r.name.length +
            r.full_name.length +
            r.section.length +
            r.source_file.length +
            r.object_file.length +
            r.archive.length);
    }
    return bytes;
  }

  /** Row indices in ascending order of `key`; ties keep address order. */
  order(key: SymbolSortKey): Uint32Array {
    let order = this.orders.get(key);
    if (!order) {
      const value = SORT_VALUE[key];
      const values = this.rows.map(value);
      const indices = Array.from(this.rows.keys()).sort((a, b) => {
        const x = values[a]!;
        const y = values[b]!;
        const by = typeof x === 'number' ? x - (y as number) : collate(x, y as string);
        return by || a - b;
      });
      order = Uint32Array.from(indices);
      this.orders.set(key, order);
    }
    return order;
  }

  /** Lower-cased name, demangled name and source path of each row, for searches. */
  search(): string[] {
    this.searchText ??= this.rows.map((r) =>
      `${r.name}\n${r.full_name}\n${r.source_file}`.toLowerCase(),
    );
    return this.searchText;
  }
}

interface Entry {
  symbols: Promise<ReportSymbols>;
  bytes: number;
}

/**
 * The symbols of recently read reports, in memory: a report version never changes, so paging,
 * sorting and searching a 40k-symbol report reads ClickHouse once. Bounded in bytes
 * (QUERY_SYMBOL_CACHE_MB), least recently used first out; keyed by report version and region
 * configuration, since both shape the rows.
 */
@Injectable()
export class ReportSymbolsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(
    @Inject(SymbolStore) private readonly store: SymbolStore,
    @Inject(SourceRoots) private readonly roots: SourceRoots,
    @Inject(QueryConfig) config: QueryConfig,
  ) {
    this.maxBytes = config.QUERY_SYMBOL_CACHE_MB * 1024 * 1024;
  }

  get(version: ReportVersion, plan: RegionPlan, planKey: string): Promise<ReportSymbols> {
    const key = `${version.reportId}/${version.version}/${planKey}`;
    const found = this.entries.get(key);
    if (found) {
      // Map order is recency order.
      this.entries.delete(key);
      this.entries.set(key, found);
      return found.symbols;
    }
    const entry: Entry = { symbols: this.load(version, plan), bytes: 0 };
    this.entries.set(key, entry);
    entry.symbols.then(
      (symbols) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = symbols.bytes;
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.symbols;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }

  private async load(version: ReportVersion, plan: RegionPlan): Promise<ReportSymbols> {
    const [rows, root] = await Promise.all([
      this.store.symbols(version),
      this.roots.of(plan, version),
    ]);
    for (const row of rows) {
      row.region = plan.canonical(row.region);
      row.source_file = relativeSource(row.source_file, root);
    }
    return new ReportSymbols(rows, root);
  }
}
