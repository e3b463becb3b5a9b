import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { currentRequestId } from '@memtrail/logging';
import { ANSWERS_AS_TEXT } from '@memtrail/contracts';
import { signMessage } from '@memtrail/rpc-auth';

/**
 * The TCP client of the query service. Every packet carries, as metadata, its signature with
 * the shared QUERY_SECRET (the query service answers nothing else), the current request id, so
 * the query service logs under the id of the HTTP request that caused the read, and that reads
 * may be answered as text (ANSWERS_AS_TEXT).
 */
export function createQueryClient(host: string, port: number, secret: string): ClientProxy {
  const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port } });
  client.setOnDispatchHook((packet) => {
    const requestId = currentRequestId();
    packet.metadata = {
      ...packet.metadata,
      ...ANSWERS_AS_TEXT,
      auth: signMessage(secret, packet.pattern, packet.data),
      ...(requestId && { requestId }),
    };
  });
  return client;
}
