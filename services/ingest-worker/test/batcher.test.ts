import { describe, expect, it } from '@jest/globals';
import { Batcher } from '../src/ingest/batcher.js';

/** A batcher over numbers (each its own size) that records the groups it writes. */
function recording(maxSize = 10, maxWaitMs = 50, lingerMs = 0, capacity?: number) {
  const groups: number[][] = [];
  const batcher = new Batcher<number, string>({
    write: async (items) => {
      groups.push(items);
      return items.map((n) => `wrote ${n} with ${items.length}`);
    },
    sizeOf: (n) => n,
    maxSize,
    maxWaitMs,
    lingerMs,
    capacity,
  });
  return { batcher, groups };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Batcher', () => {
  it('writes a lone job at once', async () => {
    const { batcher, groups } = recording(10, 60_000);
    await expect(batcher.enter().submit(3)).resolves.toBe('wrote 3 with 1');
    expect(groups).toEqual([[3]]);
  });

  it('waits for every job still preparing, then writes them together', async () => {
    const { batcher, groups } = recording(10, 60_000);
    const [a, b, c] = [batcher.enter(), batcher.enter(), batcher.enter()];
    const first = a.submit(1);
    const second = b.submit(2);
    expect(groups).toEqual([]);
    const third = c.submit(3);
    await expect(Promise.all([first, second, third])).resolves.toEqual([
      'wrote 1 with 3',
      'wrote 2 with 3',
      'wrote 3 with 3',
    ]);
    expect(groups).toEqual([[1, 2, 3]]);
  });

  it('does not wait for a job that leaves without an item', async () => {
    const { batcher, groups } = recording(10, 60_000);
    const [a, b] = [batcher.enter(), batcher.enter()];
    const written = a.submit(4);
    b.leave();
    await expect(written).resolves.toBe('wrote 4 with 1');
    expect(groups).toEqual([[4]]);
  });

  it('starts a new group rather than pass the maximum size', async () => {
    const { batcher, groups } = recording(10, 60_000);
    const tickets = [batcher.enter(), batcher.enter(), batcher.enter(), batcher.enter()];
    const written = [tickets[0]!.submit(6), tickets[1]!.submit(5), tickets[2]!.submit(5)];
    tickets[3]!.leave();
    await Promise.all(written);
    // 6 + 5 would pass 10: [6] goes alone; [5, 5] reaches 10 and is written at once.
    expect(groups).toEqual([[6], [5, 5]]);
  });

  it('writes an item larger than the maximum alone', async () => {
    const { batcher, groups } = recording(10, 60_000);
    const [a, b] = [batcher.enter(), batcher.enter()];
    await expect(a.submit(25)).resolves.toBe('wrote 25 with 1');
    b.leave();
    expect(groups).toEqual([[25]]);
  });

  it('writes after the maximum wait while a job is still preparing', async () => {
    const { batcher, groups } = recording(10, 20);
    const [a, slow] = [batcher.enter(), batcher.enter()];
    await expect(a.submit(1)).resolves.toBe('wrote 1 with 1');
    expect(groups).toEqual([[1]]);
    slow.leave();
  });

  it('rejects every item of a group whose write fails', async () => {
    const batcher = new Batcher<number, number>({
      write: () => Promise.reject(new Error('ClickHouse is down')),
      sizeOf: () => 1,
      maxSize: 10,
      maxWaitMs: 60_000,
    });
    const [a, b] = [batcher.enter(), batcher.enter()];
    const results = Promise.allSettled([a.submit(1), b.submit(2)]);
    expect((await results).map((r) => r.status === 'rejected' && String(r.reason))).toEqual([
      'Error: ClickHouse is down',
      'Error: ClickHouse is down',
    ]);
  });

  it('with a linger, holds a lone item that long, then writes it', async () => {
    const { batcher, groups } = recording(10, 20, 150);
    const started = performance.now();
    const written = batcher.enter().submit(1);
    await sleep(60);
    expect(groups).toEqual([]);
    await expect(written).resolves.toBe('wrote 1 with 1');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('with a linger, gathers the items of jobs that start while it waits', async () => {
    const { batcher, groups } = recording(10, 20, 150);
    const first = batcher.enter().submit(1);
    await sleep(40);
    const late = batcher.enter();
    await sleep(40);
    const second = late.submit(2);
    await expect(Promise.all([first, second])).resolves.toEqual([
      'wrote 1 with 2',
      'wrote 2 with 2',
    ]);
    expect(groups).toEqual([[1, 2]]);
  });

  it('with a linger, writes a group that reaches the maximum size at once', async () => {
    const { batcher, groups } = recording(10, 60_000, 60_000);
    const written = [batcher.enter().submit(4), batcher.enter().submit(6)];
    await expect(Promise.all(written)).resolves.toEqual(['wrote 4 with 2', 'wrote 6 with 2']);
    expect(groups).toEqual([[4, 6]]);
  });

  it('with a linger, still writes once the linger is over while a job is preparing', async () => {
    const { batcher, groups } = recording(10, 20, 60);
    const slow = batcher.enter();
    await expect(batcher.enter().submit(3)).resolves.toBe('wrote 3 with 1');
    expect(groups).toEqual([[3]]);
    slow.leave();
  });

  it('with a linger, does not wait once every job that can run is waiting here', async () => {
    const { batcher, groups } = recording(10, 60_000, 60_000, 2);
    const written = [batcher.enter().submit(1), batcher.enter().submit(2)];
    await expect(Promise.all(written)).resolves.toEqual(['wrote 1 with 2', 'wrote 2 with 2']);
    expect(groups).toEqual([[1, 2]]);
  });

  it('with a linger, counts the jobs whose group is being written as unable to join', async () => {
    let finishWrite = () => {};
    const groups: number[][] = [];
    const batcher = new Batcher<number, number>({
      write: (items) => {
        groups.push(items);
        if (groups.length > 1) return Promise.resolve(items);
        return new Promise((resolve) => (finishWrite = () => resolve(items)));
      },
      sizeOf: (n) => n,
      maxSize: 10,
      maxWaitMs: 60_000,
      lingerMs: 60_000,
      capacity: 3,
    });
    // 5 + 5 fills a group, written at once and still being written when the third job submits.
    const full = [batcher.enter().submit(5), batcher.enter().submit(5)];
    await expect(batcher.enter().submit(1)).resolves.toBe(1);
    expect(groups).toEqual([[5, 5], [1]]);
    finishWrite();
    await Promise.all(full);
  });

  it('takes one item per ticket', async () => {
    const { batcher } = recording();
    const ticket = batcher.enter();
    await ticket.submit(1);
    await expect(ticket.submit(2)).rejects.toThrow('already used');
  });
});
