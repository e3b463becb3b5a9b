/** Queue names shared by producers (gateway) and consumers (ingest-worker). */
export const QueueNames = {
  reports: 'reports',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];
