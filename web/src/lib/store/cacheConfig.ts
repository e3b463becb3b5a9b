import type { SWRConfiguration } from 'swr';
import type { DataCache } from './dataCache.ts';
import { lifetimes } from './lifetimes.ts';

/** SWRConfig's value for one data cache: SWR keeps its state there and applies the lifetimes. */
export const cacheConfig = (cache: DataCache): SWRConfiguration => ({
  provider: () => cache,
  use: [lifetimes(cache)],
});
