import { useMemo, useSyncExternalStore } from 'react';
import useSWR from 'swr';
import { useCoreApi } from './api/ApiProvider.tsx';
import { organizationsApi } from './api/organizations.ts';
import { STORAGE_KEYS } from './storageKeys.ts';

// The organisation chosen in the header, kept across visits. Lists show its projects only;
// no choice shows every project the user can reach.

const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.organization);
  } catch {
    return null;
  }
}

export function chooseOrganization(id: string | null): void {
  try {
    if (id) localStorage.setItem(STORAGE_KEYS.organization, id);
    else localStorage.removeItem(STORAGE_KEYS.organization);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  listeners.forEach((notify) => notify());
}

function subscribe(notify: () => void) {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

export function useChosenOrganization(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

export function useOrganizationsApi() {
  const { api } = useCoreApi();
  return useMemo(() => organizationsApi(api), [api]);
}

/** The user's organisations, and the chosen one when it is still among them. */
export function useOrganizations() {
  const orgs = useOrganizationsApi();
  const chosenId = useChosenOrganization();
  const result = useSWR('organizations', () => orgs.organizations(), {
    revalidateOnFocus: false,
  });
  const chosen = result.data?.find((o) => o.id === chosenId) ?? null;
  return { ...result, chosen };
}
