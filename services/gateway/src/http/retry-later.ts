import { HttpException, HttpStatus } from '@nestjs/common';

/** 503 with the seconds after which the client should try again; type ServiceUnavailableError. */
export class ServiceUnavailableException extends HttpException {
  constructor(
    readonly retryAfterS: number,
    message: string,
  ) {
    super(message, HttpStatus.SERVICE_UNAVAILABLE);
  }
}

/** The `Retry-After` seconds an exception asks for (429s and 503s carry them), if any. */
export function retryAfterOf(exception: unknown): number | undefined {
  if (!(exception instanceof HttpException)) return undefined;
  const seconds = (exception as { retryAfterS?: unknown }).retryAfterS;
  return typeof seconds === 'number' ? seconds : undefined;
}
