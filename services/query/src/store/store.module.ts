import { Module } from '@nestjs/common';
import { BlockCache } from './block-cache.js';
import { BlockHistory } from './block-history.js';
import { StoredVersions } from './stored-versions.js';
import { SymbolStore } from './symbol-store.js';

/** How reads reach stored reports: versions (Postgres) and symbol blocks (ClickHouse). */
@Module({
  providers: [StoredVersions, BlockCache, BlockHistory, SymbolStore],
  exports: [SymbolStore],
})
export class StoreModule {}
