import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `read` until `done` accepts its value, for effects that happen asynchronously (a job
 * finishing, a row appearing). Fails with the last value seen, so a test shows what it got.
 * The default bound is generous (yet inside jest's 60 s per test, so the failure shows the last
 * value): on a machine busy with other work effects take many times longer, and a passing test
 * never waits for the bound anyway.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 45_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`,
      );
    }
    await sleep(intervalMs);
    value = await read();
  }
  return value;
}
