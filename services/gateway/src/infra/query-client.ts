import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { currentRequestId } from '@memtrail/logging';

/**
 * The TCP client of the query service. Every packet carries the current request id as metadata,
 * so the query service logs under the id of the HTTP request that caused the read.
 */
export function createQueryClient(host: string, port: number): ClientProxy {
  const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port } });
  client.setOnDispatchHook((packet) => {
    const requestId = currentRequestId();
    if (requestId) packet.metadata = { ...packet.metadata, requestId };
  });
  return client;
}
