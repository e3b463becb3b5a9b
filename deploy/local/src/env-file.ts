import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stackPaths } from './paths.js';

export type StackEnv = Record<string, string>;

export function writeStackEnv(env: StackEnv): void {
  mkdirSync(dirname(stackPaths.envFile), { recursive: true });
  const lines = Object.entries(env).map(([key, value]) => `${key}=${value}`);
  writeFileSync(stackPaths.envFile, `${lines.join('\n')}\n`);
}

export function readStackEnv(): StackEnv {
  if (!existsSync(stackPaths.envFile)) return {};
  const entries = readFileSync(stackPaths.envFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return Object.fromEntries(entries);
}
