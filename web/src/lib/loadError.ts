/**
 * A data load that failed, thrown to an error boundary so the page shows its error screen
 * instead of an empty state. It carries the forced reload that the screen's Retry runs.
 */
export class LoadError extends Error {
  override name = 'LoadError';
  constructor(
    message: string,
    readonly reload: () => Promise<unknown>,
  ) {
    super(message);
  }
}

/**
 * Retry of an error screen: reload what failed when it was a load, then render again. A reload
 * that fails again is not an error here: the data hooks hold the new error, and rendering
 * again brings the error screen back with it.
 */
export async function retryRender(error: unknown, render: () => void): Promise<void> {
  if (error instanceof LoadError) await error.reload().catch(() => undefined);
  render();
}
