import { pino, type Logger } from 'pino';
import { currentRequestId } from './request-context.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

/** One JSON object per line, with the service name on every line so mixed logs stay readable. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Lines written while serving a request or running its job name the request.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
