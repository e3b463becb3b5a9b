import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { TcpContext } from '@nestjs/microservices';
import { ANSWERS_AS_TEXT, serialized } from '@memtrail/contracts';
import { map, type Observable } from 'rxjs';

/**
 * Serialises a read's answer once, here, for a caller that takes answers as text (packet
 * metadata ANSWERS_AS_TEXT); any other caller — a gateway of an earlier release during a
 * rolling upgrade — gets the data itself.
 */
@Injectable()
export class TextAnswersInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = context.switchToRpc().getContext<TcpContext>().getMetadata?.();
    if (metadata?.['answers'] !== ANSWERS_AS_TEXT.answers) return next.handle();
    return next.handle().pipe(map((data: unknown) => serialized(data)));
  }
}
