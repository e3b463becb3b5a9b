import useSWR from 'swr';
import { fetchReadiness, READINESS_PATH, type Readiness } from './readiness.ts';

// Poll quickly while something is down so recovery shows up soon, slowly once all is well.
const POLL_WHILE_DOWN_MS = 3_000;
const POLL_WHILE_UP_MS = 30_000;

export function useReadiness() {
  return useSWR<Readiness, Error>(READINESS_PATH, fetchReadiness, {
    refreshInterval: (latest) => (latest?.status === 'ok' ? POLL_WHILE_UP_MS : POLL_WHILE_DOWN_MS),
    // SWR pauses interval polling while the last attempt failed and hands over to error retry,
    // whose default backoff grows to minutes and gives up after the app-wide retry count. An
    // unreachable gateway (a restart, say) is exactly when this panel must keep asking, so it
    // retries at the steady "down" pace, without a limit.
    onErrorRetry: (_error, _key, _config, revalidate, options) => {
      setTimeout(() => void revalidate(options), POLL_WHILE_DOWN_MS);
    },
  });
}
