import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { getPriority } from 'node:os';
import { localSecrets } from '../src/secrets.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureStores } from '../src/stores.js';
import { withStackLock } from '../src/lock.js';
import { pingRedis } from '../src/redis.js';
import { pingHttp } from '../src/clickhouse.js';
import { BACKGROUND_NICE, spawnDetached, stopProcess } from '../src/processes.js';
import { startLocalMail, stopLocalMail } from '../src/mail.js';
import nodemailer from 'nodemailer';

/** Nice value of a process's main thread (field 19 of /proc/<pid>/stat). */
const niceOf = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

describe('local stack', () => {
  it('serialises concurrent start-ups with the stack lock', async () => {
    const events: string[] = [];
    const holder = (name: string) =>
      withStackLock(async () => {
        events.push(`${name}:in`);
        await sleep(50);
        events.push(`${name}:out`);
      });
    await Promise.all([holder('a'), holder('b'), holder('c')]);
    // Each holder leaves before the next enters.
    for (let i = 0; i < events.length; i += 2) {
      expect(events[i]?.replace(':in', '')).toBe(events[i + 1]?.replace(':out', ''));
    }
  });

  it('generates its secrets once, random, in a file only its owner can read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memtrail-secrets-'));
    try {
      const file = join(dir, 'data', 'secrets.env');
      const first = localSecrets(file);
      expect(first.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(localSecrets(file)).toEqual(first);
      expect(localSecrets(join(dir, 'other.env')).JWT_SECRET).not.toBe(first.JWT_SECRET);
      expect(first.QUERY_SECRET).toMatch(/^[0-9a-f]{64}$/);
      expect(first.QUERY_SECRET).not.toBe(first.JWT_SECRET);
      expect(readFileSync(file, 'utf8')).toBe(
        `JWT_SECRET=${first.JWT_SECRET}\nQUERY_SECRET=${first.QUERY_SECRET}\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses URLs from the environment as they are, without starting anything', async () => {
    const env = {
      DATABASE_URL: 'postgres://u@db.example:5432/x',
      REDIS_URL: 'redis://cache.example:6379',
      CLICKHOUSE_URL: 'http://ch.example:8123',
    };
    const { stores, status } = await ensureStores(env);
    expect(stores).toEqual(env);
    expect(status.map((s) => s.source)).toEqual(['external', 'external', 'external']);
  });

  it('starts the embedded stores, or reuses them when running, and they answer', async () => {
    const first = await ensureStores({});
    const second = await ensureStores({});
    expect(second.stores).toEqual(first.stores);
    expect(second.status.map((s) => s.source)).toEqual(['reused', 'reused', 'reused']);
    const redis = new URL(first.stores.REDIS_URL);
    expect(await pingRedis(redis.hostname, Number(redis.port))).toBe(true);
    expect(await pingHttp(`${first.stores.CLICKHOUSE_URL}/ping`)).toBe(true);
  });

  it('starts the mail catcher, whose inbox keeps what is sent to its SMTP server', async () => {
    const mail = await startLocalMail();
    try {
      const again = await startLocalMail();
      expect(again).toEqual({ ...mail, started: false });
      const to = `catcher-${Date.now()}@example.com`;
      const transport = nodemailer.createTransport(mail.smtpUrl);
      await transport.sendMail({ from: 'stack@test', to, subject: 'Hello inbox', text: 'link' });
      transport.close();
      const inbox = (await (await fetch(`${mail.webUrl}/api/email`)).json()) as {
        subject: string;
        to: { address: string }[];
      }[];
      expect(inbox.filter((m) => m.to[0]?.address === to).map((m) => m.subject)).toEqual([
        'Hello inbox',
      ]);
    } finally {
      // Only a catcher this test started is stopped; a running stack's stays.
      if (mail.started) await stopLocalMail();
    }
  });

  it("starts background processes at a lower CPU priority, their own and their group's", async () => {
    const expected = Math.min(19, getPriority() + BACKGROUND_NICE);
    const started = (name: string, background: boolean) =>
      spawnDetached({ name, command: 'sleep', args: ['30'], background });
    const background = started('test-background', true);
    const foreground = started('test-foreground', false);
    try {
      // `nice` sets the priority, then execs the command.
      for (
        let i = 0;
        i < 100 && readFileSync(`/proc/${background}/comm`, 'utf8') !== 'sleep\n';
        i++
      )
        await sleep(20);
      expect(niceOf(background)).toBe(expected);
      expect(niceOf(foreground)).toBe(getPriority());
      const autogroup = `/proc/${background}/autogroup`;
      if (existsSync(autogroup)) {
        expect(readFileSync(autogroup, 'utf8')).toMatch(new RegExp(`nice ${BACKGROUND_NICE}\\b`));
      }
    } finally {
      await stopProcess('test-background');
      await stopProcess('test-foreground');
    }
  });
});
