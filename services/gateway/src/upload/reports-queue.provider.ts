import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { createRedisConnection, createReportsQueue, type ReportsQueue } from '@memtrail/queue';
import { GatewayConfig } from '../config.js';

export const REPORTS_QUEUE = Symbol('REPORTS_QUEUE');

/** The producer side of the `reports` queue, with its own connection closed on shutdown. */
export const reportsQueueProvider: Provider = {
  provide: REPORTS_QUEUE,
  inject: [GatewayConfig],
  useFactory: (config: GatewayConfig): ReportsQueue & OnApplicationShutdown => {
    const connection = createRedisConnection(config.REDIS_URL, {
      // Fail an enqueue fast when Redis is down: the report is already stored and the sweeper
      // enqueues it later, so the upload must not hang on Redis.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    const queue = createReportsQueue({ connection, prefix: config.QUEUE_PREFIX });
    // Without a listener an 'error' event would end the process; a failed enqueue is reported
    // where it happens.
    queue.on('error', () => undefined);
    return Object.assign(queue, {
      async onApplicationShutdown() {
        await queue.close();
        connection.disconnect();
      },
    });
  },
};
