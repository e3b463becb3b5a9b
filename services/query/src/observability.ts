import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Server, TcpContext } from '@nestjs/microservices';
import { acceptRequestId, runWithRequestId } from '@memtrail/logging';
import type { ServiceMetrics } from '@memtrail/metrics';
import { Observable, tap } from 'rxjs';

/**
 * Runs every incoming message under the request id the gateway attached (see the gateway's
 * dispatch hook), so this service's log lines carry the id of the HTTP request they serve.
 */
export function propagateRequestIds(server: Pick<Server, 'setOnProcessingStartHook'>): void {
  server.setOnProcessingStartHook((_transport, context, done) => {
    const metadata = (context as TcpContext).getMetadata?.();
    return runWithRequestId(acceptRequestId(metadata?.['requestId']), done);
  });
}

/** Times every message handler by pattern and outcome; failures also count as errors. */
export class RpcMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: ServiceMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const pattern = context.switchToRpc().getContext<TcpContext>().getPattern();
    const stop = this.metrics.rpcDuration.startTimer({ pattern });
    return next.handle().pipe(
      tap({
        complete: () => stop({ outcome: 'ok' }),
        error: () => {
          stop({ outcome: 'error' });
          this.metrics.errors.inc({ kind: 'rpc' });
        },
      }),
    );
  }
}
