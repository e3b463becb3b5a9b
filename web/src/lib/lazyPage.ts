import { lazy, type ComponentType } from 'react';

// Spec §7/§9: lazy chunks must arrive within 120 s, and a missing or late chunk is a load
// error rather than a spinner that never ends.
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** Races a dynamic import against the chunk timeout; other failures are wrapped, not hidden. */
export function withTimeout<T>(
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading a page chunk timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError('A page chunk failed to load', { cause }));
      },
    );
  });
}

/**
 * React.lazy for modules with a named export, so pages keep named exports (easier to find and
 * refactor) and still split into their own chunk.
 */
export function lazyPage<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  exportName: K,
) {
  return lazy(async () => {
    const module = await withTimeout(load);
    return { default: module[exportName] };
  });
}
