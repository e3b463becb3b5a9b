import useSWR from 'swr';
import { fetchReadiness, READINESS_PATH, type Readiness } from './readiness.ts';

// Poll quickly while something is down so recovery shows up soon, slowly once all is well.
const POLL_WHILE_DOWN_MS = 3_000;
const POLL_WHILE_UP_MS = 30_000;

export function useReadiness() {
  return useSWR<Readiness, Error>(READINESS_PATH, fetchReadiness, {
    refreshInterval: (latest) => (latest?.status === 'ok' ? POLL_WHILE_UP_MS : POLL_WHILE_DOWN_MS),
    // The probe is cheap and its answer changes; a stale "up" on focus would mislead.
    revalidateOnFocus: true,
  });
}
