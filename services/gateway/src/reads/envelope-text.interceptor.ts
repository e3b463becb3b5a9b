import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { isSerialized, successJson, type Serialized } from '@memtrail/contracts';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

/** A success envelope already serialised as JSON; `T` is the type of its data. */
export class EnvelopeText<T> {
  /** Never set: ties the body to the type of its data. */
  declare readonly data?: T;

  private constructor(readonly text: string) {}

  /**
   * The envelope around a query-service answer: its data left as the text it arrived as, or
   * serialised here when a query service of an earlier release sent the data itself.
   */
  static of<T>(reply: Serialized<T> | T): EnvelopeText<T> {
    return new EnvelopeText<T>(
      successJson(isSerialized(reply) ? reply.json : JSON.stringify(reply)),
    );
  }
}

/**
 * Sends a handler's `EnvelopeText` as the body, typed as JSON (Nest would send a string as
 * HTML); any other result is left to Nest. Express still adds its ETag.
 */
@Injectable()
export class EnvelopeTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof EnvelopeText)) return body;
        context.switchToHttp().getResponse<Response>().type('application/json');
        return body.text;
      }),
    );
  }
}
