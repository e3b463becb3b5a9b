import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stackPaths } from './paths.js';
import { isAlive } from './processes.js';

/**
 * Serialises stack start-up across processes (parallel jest workers, a second `npm run up`), so
 * two of them never start the same server at once.
 */
export function withStackLock<T>(fn: () => Promise<T>, timeoutMs = 180_000): Promise<T> {
  return withLock('stack', fn, timeoutMs);
}

/**
 * Runs `fn` while holding the lock `name` of this stack, waiting for another process holding
 * it. mkdir is atomic; a lock whose owner died is taken over.
 */
export async function withLock<T>(
  name: string,
  fn: () => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  const lockDir = join(stackPaths.run, `${name}.lock`);
  mkdirSync(stackPaths.run, { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'owner'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lockDir, 'owner'), 'utf8'));
      } catch {
        // The owner is between mkdir and writing its pid; wait for it.
      }
      if (Number.isInteger(owner) && !isAlive(owner))
        rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`Timed out waiting for the stack lock ${lockDir}`);
      else await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
