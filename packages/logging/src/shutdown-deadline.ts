/** Signals on which a service shuts down (NestJS' shutdown hooks listen for the same). */
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Ends the process with exit code 1 when the clean-up that a shutdown signal starts has not
 * finished within `seconds`. The clean-up waits on the stores (closing Postgres, Redis and
 * ClickHouse clients, finishing in-flight jobs); when one of them stopped answering, the
 * process would otherwise stay alive without its listening socket until something killed it.
 * A job cut short this way runs again (its retries are idempotent). The timer does not keep a
 * process alive whose clean-up finished.
 */
export function exitIfShutdownStalls(
  seconds: number,
  logger: { error(message: string): void },
  { signals = process, exit = (code: number) => process.exit(code) }: ShutdownHooks = {},
): void {
  for (const signal of SHUTDOWN_SIGNALS) {
    signals.once(signal, () => {
      setTimeout(() => {
        logger.error(`shutdown on ${signal} did not finish within ${seconds} s: exiting`);
        exit(1);
      }, seconds * 1000).unref();
    });
  }
}

/** Where the signals come from and how the process ends (the process itself, but in tests). */
export interface ShutdownHooks {
  signals?: Pick<NodeJS.EventEmitter, 'once'>;
  exit?: (code: number) => void;
}
