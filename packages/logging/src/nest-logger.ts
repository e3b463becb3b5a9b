import type { Logger } from 'pino';

/**
 * Adapts pino to Nest's LoggerService shape (log/error/warn/debug/verbose/fatal) so Nest's own
 * start-up and error lines come out as the same JSON as ours. Typed structurally so this package
 * does not depend on Nest.
 */
export class NestPinoLogger {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest passes optional params, the last of which is the context (the class that logged). */
  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    rest: unknown[],
  ) {
    const params = [...rest];
    const context = typeof params.at(-1) === 'string' ? (params.pop() as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
      return;
    }
    // Nest's error() passes the stack trace as the first extra parameter.
    if (level === 'error' && typeof params[0] === 'string' && params[0].includes('\n')) {
      fields.stack = params.shift();
    }
    if (params.length > 0) fields.details = params;
    this.logger[level](fields, typeof message === 'string' ? message : JSON.stringify(message));
  }
}
