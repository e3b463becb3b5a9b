import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { AuthResponse } from '@memtrail/contracts';
import type { Response } from 'express';

/**
 * `/auth/*` errors in the on-premises shape the web reads (`success`, `error`; spec §7, §8),
 * with `type` naming the exception kind like the API envelope does.
 */
@Catch()
export class AuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AuthErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (exception instanceof HttpException) {
      const body = exception.getResponse();
      const message =
        typeof body === 'string'
          ? body
          : Array.isArray((body as { message?: unknown }).message)
            ? (body as { message: string[] }).message.join('; ')
            : String((body as { message?: unknown }).message ?? exception.message);
      res
        .status(exception.getStatus())
        .json(this.failure(exception.constructor.name.replace(/Exception$/, 'Error'), message));
      return;
    }
    this.logger.error(exception instanceof Error ? exception : String(exception));
    res
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .json(this.failure('InternalError', 'Internal server error'));
  }

  private failure(type: string, error: string): AuthResponse<never> {
    return { success: false, data: null, error, type };
  }
}
