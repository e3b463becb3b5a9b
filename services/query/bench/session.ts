/**
 * What `seed:scale` and `bench:query` share: the gateway address, the seed state file, and a
 * signed-in session for the benchmark user.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import pg from 'pg';

export const CORE_URL = (process.env.MEMTRAIL_URL ?? 'http://localhost:5000').replace(/\/$/, '');
export const STATE_FILE = resolve(process.env.SEED_STATE ?? '.data/bench/query-seed.json');
const STACK_ENV = resolve('.data/stack.env');

export interface SeedTarget {
  name: string;
  commits: number;
  symbols: number;
  seed: number;
  /** Commits uploaded so far (in order), so a re-run resumes instead of starting over. */
  uploaded: number;
  /** SHA of the newest uploaded commit of the main branch. */
  head: string | null;
  /** Indexes of the commits uploaded as full builds (the others are identical or failed). */
  fullBuilds?: number[];
}

export interface SeedState {
  email: string;
  password: string;
  projectId: string;
  apiKey: string;
  targets: SeedTarget[];
  /** A recent access token of the user and when it was issued (epoch ms). */
  token?: string;
  tokenAt?: number;
}

export function readState(): SeedState | null {
  return existsSync(STATE_FILE)
    ? (JSON.parse(readFileSync(STATE_FILE, 'utf8')) as SeedState)
    : null;
}

export function writeState(state: SeedState): void {
  mkdirSync(dirname(STATE_FILE), { recursive: true });
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

export async function api<T>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: { data: T; error: string | null } }> {
  const response = await fetch(`${CORE_URL}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Access tokens live an hour; one is reused for 45 minutes so reruns stay under the sign-in limit. */
const TOKEN_REUSE_MS = 45 * 60_000;

/**
 * A session for the benchmark user, signing up first when the account does not exist. In cloud
 * mode a new address must be confirmed by mail; on a local stack (mail goes to the log) it is
 * confirmed directly in the stack's Postgres instead. The token is kept in the state file, since
 * the gateway limits sign-ins per account (10 per 15 minutes by default).
 */
export async function signIn(
  state: Pick<SeedState, 'email' | 'password' | 'token' | 'tokenAt'>,
): Promise<string> {
  if (state.token && state.tokenAt && Date.now() - state.tokenAt < TOKEN_REUSE_MS) {
    const check = await api('GET', '/api/projects', { token: state.token });
    if (check.status === 200) return state.token;
  }
  const { email, password } = state;
  const login = () =>
    api<{ access_token?: string }>('POST', '/auth/login', { body: { email, password } });
  let res = await login();
  if (res.status === 401) {
    const signup = await api<{ access_token?: string | null }>('POST', '/auth/signup', {
      body: { email, password, full_name: 'Benchmark User' },
    });
    if (signup.status !== 200) {
      throw new Error(
        `sign-up of ${email} failed: ${signup.status} ${JSON.stringify(signup.body)}`,
      );
    }
    if (!signup.body.data.access_token) await confirmDirectly(email);
    res = await login();
  }
  if (res.status !== 200 || !res.body.data.access_token) {
    throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  state.token = res.body.data.access_token;
  state.tokenAt = Date.now();
  return state.token;
}

/** The stack's Postgres (DATABASE_URL, else the one `npm run up` recorded in .data/stack.env). */
export async function stackDatabase(): Promise<pg.Client> {
  const url =
    process.env.DATABASE_URL ??
    (existsSync(STACK_ENV)
      ? readFileSync(STACK_ENV, 'utf8')
          .split('\n')
          .find((l) => l.startsWith('DATABASE_URL='))
          ?.slice('DATABASE_URL='.length)
      : undefined);
  if (!url)
    throw new Error(
      `DATABASE_URL is unknown (set it, or run \`npm run up\` to write ${STACK_ENV})`,
    );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function confirmDirectly(email: string): Promise<void> {
  const client = await stackDatabase();
  try {
    await client.query('UPDATE users SET email_confirmed_at = now() WHERE email = $1', [email]);
  } finally {
    await client.end();
  }
}
