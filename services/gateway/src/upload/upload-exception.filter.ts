import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { UploadErrorResponse } from '@memtrail/contracts';
import type { Response } from 'express';
import { errorMessage, errorType } from '../http/envelope-exception.filter.js';
import { retryAfterOf } from '../http/retry-later.js';

/**
 * Upload-protocol errors: `{success: false, type, error}` with the HTTP status, which the
 * MemBrowse CLI prints as "Error: <error>". The product envelope's fields are included too, so
 * clients of either shape read them.
 */
@Catch()
export class UploadExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('UploadErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    send(host.switchToHttp().getResponse<Response>(), exception, this.logger);
  }
}

export function send(res: Response, exception: unknown, logger: Logger): void {
  // A client that went away mid-request has nobody to answer; that is not a server error.
  if (!res.headersSent && (res.destroyed || !res.socket || res.socket.destroyed)) {
    logger.warn(`client closed the connection first: ${String(exception)}`);
    return;
  }
  let status: number = HttpStatus.INTERNAL_SERVER_ERROR;
  let [type, error] = ['InternalError', 'Internal server error'];
  if (exception instanceof HttpException) {
    status = exception.getStatus();
    [type, error] = [errorType(exception), errorMessage(exception)];
  } else {
    logger.error(exception instanceof Error ? exception : String(exception));
  }
  const retryAfter = retryAfterOf(exception);
  if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
  const body: UploadErrorResponse = { success: false, type, error, status: 'error', data: null };
  res.status(status).json(body);
}
