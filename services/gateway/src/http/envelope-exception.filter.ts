import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { failure } from '@memtrail/contracts';
import type { Response } from 'express';

/** `NotFoundException` → `NotFoundError`: the `type` the web shows as `{type}: {error}`. */
export function errorType(exception: HttpException): string {
  return exception.constructor.name.replace(/Exception$/, 'Error');
}

/** Nest puts validation messages in `message` as a string or a list of strings. */
export function errorMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/**
 * Every error leaves the gateway in the product's envelope `{status, type, error, data}`.
 * Unexpected errors are logged with their stack and answered as a plain 500, without internals.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (exception instanceof HttpException) {
      res
        .status(exception.getStatus())
        .json(failure(errorType(exception), errorMessage(exception)));
      return;
    }
    this.logger.error(exception instanceof Error ? exception : String(exception));
    res
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .json(failure('InternalError', 'Internal server error'));
  }
}
