import { Gauge } from 'prom-client';
import type { ServiceMetrics } from './service-metrics.js';

/** What the queue gauges need from a queue; BullMQ's Queue provides both. */
export interface QueueProbe {
  name: string;
  /** Jobs per state, e.g. { waiting: 3, active: 2, delayed: 0, failed: 1 }. */
  getJobCounts(...states: JobState[]): Promise<Record<string, number>>;
  /** Oldest first when `asc` is true. */
  getJobs(
    states: JobState[],
    start: number,
    end: number,
    asc: boolean,
  ): Promise<{ timestamp: number }[]>;
}

export const JOB_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Queue depth per state and the age of the oldest job still waiting, read from Redis when
 * Prometheus scrapes (never on a timer, so an idle service costs nothing). The age is the
 * backlog signal to alert and scale on: depth alone cannot tell a burst from a stuck queue.
 */
export function registerQueueMetrics(metrics: ServiceMetrics, queues: QueueProbe[]): void {
  new Gauge({
    name: 'memtrail_queue_jobs',
    help: 'Jobs in the queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const queue of queues) {
        const counts = await queue.getJobCounts(...JOB_STATES);
        for (const state of JOB_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: 'memtrail_queue_oldest_waiting_job_age_seconds',
    help: 'Age of the oldest job waiting to be picked up (0 when none waits)',
    labelNames: ['queue'] as const,
    registers: [metrics.registry],
    async collect() {
      for (const queue of queues) {
        // One job from the head of each state's list: the oldest of those is the oldest waiting.
        const heads = await queue.getJobs(['waiting', 'prioritized'], 0, 0, true);
        const oldest = Math.min(...heads.map((job) => job.timestamp));
        const age = heads.length > 0 ? Math.max(0, (Date.now() - oldest) / 1000) : 0;
        this.set({ queue: queue.name }, age);
      }
    },
  });
}
