import { STORAGE_KEYS } from './storageKeys.ts';

// A link followed while signed out (a shared compare link) is remembered for this tab, and the
// app returns to it once signed in. Only paths on this origin are ever remembered or followed.

/** A path on this origin: `/x…`, never `//host` or `/\host`, no control characters. */
export function isSameOriginPath(path: string): boolean {
  const control = [...path].some((char) => char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127);
  return /^\/(?![/\\])/.test(path) && !control;
}

const storage = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

export function rememberReturn(path: string): void {
  if (!isSameOriginPath(path)) return;
  try {
    storage()?.setItem(STORAGE_KEYS.returnTo, path);
  } catch {
    // Without storage the user simply lands on the projects list.
  }
}

/** The remembered path, if any (kept until taken). */
export function pendingReturn(): string | null {
  const path = storage()?.getItem(STORAGE_KEYS.returnTo) ?? null;
  return path && isSameOriginPath(path) ? path : null;
}

/** The remembered path, forgotten as it is taken. */
export function takeReturn(): string | null {
  const path = pendingReturn();
  storage()?.removeItem(STORAGE_KEYS.returnTo);
  return path;
}
