import { useSyncExternalStore } from 'react';

// Count of background loads (targets, heads, memory reports) in progress; the global loading
// bar shows while it is above zero (spec §2).

let active = 0;
const listeners = new Set<() => void>();

const notify = () => listeners.forEach((listener) => listener());

/** Wraps a load so the loading bar shows for its duration. */
export async function trackBackgroundLoad<T>(load: () => Promise<T>): Promise<T> {
  active++;
  notify();
  try {
    return await load();
  } finally {
    active--;
    notify();
  }
}

export function useBackgroundLoading(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => active > 0,
  );
}
