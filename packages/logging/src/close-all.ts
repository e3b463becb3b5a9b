/**
 * Closes connections at shutdown, all at once, and logs each one that fails to close by name:
 * one failure must neither keep the others open nor go unnoticed. Never throws, so the rest of
 * the shutdown still runs.
 */
export async function closeAll(
  closers: Record<string, () => Promise<unknown>>,
  logger: { error(message: string): void },
): Promise<void> {
  const names = Object.keys(closers);
  const results = await Promise.allSettled(names.map((name) => closers[name]!()));
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
      logger.error(`closing ${names[i]} failed at shutdown: ${reason}`);
    }
  });
}
