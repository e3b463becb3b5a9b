import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { exitIfShutdownStalls } from '@memtrail/logging';

function hooks() {
  const signals = new EventEmitter();
  const errors: string[] = [];
  let exited: ((code: number) => void) | undefined;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  return { signals, errors, exit, exitCode: (code: number) => exited!(code) };
}

describe('exitIfShutdownStalls', () => {
  it('ends the process with code 1, saying why, once a shutdown outlasts its deadline', async () => {
    const { signals, errors, exit, exitCode } = hooks();
    exitIfShutdownStalls(0.05, { error: (m) => errors.push(m) }, { signals, exit: exitCode });
    signals.emit('SIGTERM');
    expect(await exit).toBe(1);
    expect(errors).toEqual(['shutdown on SIGTERM did not finish within 0.05 s: exiting']);
  });

  it('starts counting only at a shutdown signal, SIGINT as well as SIGTERM', async () => {
    const { signals, errors, exit, exitCode } = hooks();
    let exits = 0;
    exitIfShutdownStalls(
      0.01,
      { error: (m) => errors.push(m) },
      {
        signals,
        exit: (code) => {
          exits++;
          exitCode(code);
        },
      },
    );
    // Far longer than the deadline, without a signal: nothing happens.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(exits).toBe(0);
    signals.emit('SIGINT');
    expect(await exit).toBe(1);
    expect(errors).toEqual(['shutdown on SIGINT did not finish within 0.01 s: exiting']);
  });
});
