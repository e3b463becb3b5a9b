import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { RpcException, type TcpContext } from '@nestjs/microservices';
import { MessageVerifier } from '@memtrail/rpc-auth';

/**
 * Answers only messages the gateway signed with the shared QUERY_SECRET (see
 * @memtrail/rpc-auth): anything else that reaches the TCP port — another pod, a process on the
 * host — is refused before a handler runs.
 */
@Injectable()
export class SignedMessagesGuard implements CanActivate {
  private readonly logger = new Logger(SignedMessagesGuard.name);

  constructor(private readonly verifier: MessageVerifier) {}

  canActivate(context: ExecutionContext): boolean {
    const rpc = context.switchToRpc();
    const tcp = rpc.getContext<TcpContext>();
    const problem = this.verifier.problem(
      tcp.getPattern(),
      rpc.getData(),
      tcp.getMetadata?.()?.['auth'],
    );
    if (!problem) return true;
    this.logger.warn(`refused ${tcp.getPattern()}: ${problem}`);
    throw new RpcException({ status: 'error', message: `Unauthenticated message: ${problem}` });
  }
}
