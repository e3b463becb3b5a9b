#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { readStackEnv, writeStackEnv } from './env-file.js';
import { dataDir, repoRoot, stackPaths } from './paths.js';
import { localSecrets } from './secrets.js';
import { stackPorts } from './ports.js';
import { ensureService, SERVICES, stopServices, waitForGateway } from './services.js';
import { startLocalMail, stopLocalMail } from './mail.js';
import { ensureStores, stopStores } from './stores.js';

const CLICKHOUSE_DATABASE = process.env.CLICKHOUSE_DATABASE ?? 'memtrail';

function npm(args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync('npm', args, { cwd: repoRoot, env, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`npm ${args.join(' ')} failed with exit code ${result.status}`);
}

async function up(storesOnly: boolean): Promise<void> {
  const { stores, status } = await ensureStores();
  const stackEnv = { ...stores, CLICKHOUSE_DATABASE };
  writeStackEnv(stackEnv);
  const env = { ...process.env, ...stackEnv };
  npm(['run', 'migrate', '--silent'], env);

  const lines = status.map((s) => `  ${s.name.padEnd(14)} ${s.url} (${s.source})`);
  if (!storesOnly) {
    const serviceEnv: NodeJS.ProcessEnv = {
      ...env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      PORT: String(stackPorts.gateway),
      QUERY_PORT: String(stackPorts.query),
    };
    // Secrets given in the environment win over the generated ones.
    for (const [name, value] of Object.entries(localSecrets())) serviceEnv[name] ||= value;
    // Without an SMTP server of the user's, mail goes to the local catcher's inbox.
    if (!process.env.SMTP_URL) {
      const mail = await startLocalMail();
      serviceEnv.SMTP_URL = mail.smtpUrl;
      writeStackEnv({ ...stackEnv, MAIL_WEB_URL: mail.webUrl });
      lines.push(`  mail inbox     ${mail.webUrl} (${mail.started ? 'started' : 'reused'})`);
    }
    for (const service of SERVICES) {
      const state = await ensureService(service, serviceEnv);
      lines.push(`  ${service.padEnd(14)} ${state}`);
    }
    await waitForGateway(`http://127.0.0.1:${stackPorts.gateway}`);
    // Demo data goes in through the running gateway and the CLI, like any user's; idempotent.
    // A failed seed leaves a working, empty stack: say so, and go on.
    if (process.env.MEMTRAIL_SEED !== '0') {
      try {
        npm(['run', 'seed', '--silent'], env);
      } catch (error) {
        console.warn(
          `warning: no demo data (${(error as Error).message}); retry with npm run seed`,
        );
      }
    }
    lines.unshift(`  web + API      http://localhost:${stackPorts.gateway}`);
  }
  console.log(
    [
      storesOnly ? 'Memtrail stores are up' : 'Memtrail is up',
      ...lines,
      `  env file       ${relative(process.cwd(), stackPaths.envFile)}`,
      `  logs           ${relative(process.cwd(), stackPaths.logs)}/`,
      'Stop everything with: npm run down',
    ].join('\n'),
  );
}

async function down(): Promise<void> {
  const stopped = [
    ...(await stopServices()),
    ...((await stopLocalMail()) ? ['mail'] : []),
    ...(await stopStores()),
  ];
  console.log(
    stopped.length ? `Stopped: ${stopped.join(', ')}` : `Nothing was running under ${dataDir}`,
  );
}

async function main(): Promise<void> {
  const [command = 'up', ...flags] = process.argv.slice(2);
  switch (command) {
    case 'up':
      return up(flags.includes('--stores-only'));
    case 'down':
      return down();
    case 'env':
      for (const [key, value] of Object.entries(readStackEnv())) console.log(`${key}=${value}`);
      return;
    default:
      throw new Error(`Unknown command "${command}": use up [--stores-only], down or env`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
