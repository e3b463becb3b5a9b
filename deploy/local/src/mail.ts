import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pingHttp } from './clickhouse.js';
import { logFile, stackPaths } from './paths.js';
import { stackPorts } from './ports.js';
import { runningPid, spawnDetached, stopProcess, waitFor } from './processes.js';

/**
 * The local mail catcher (MailDev): with no SMTP_URL the gateway's confirmation, reset and
 * invitation mail goes to an SMTP server on this machine that keeps it in a web inbox (and a
 * REST API the end-to-end tests read), instead of nowhere.
 */
export interface LocalMail {
  /** For the gateway. */
  smtpUrl: string;
  /** The inbox in a browser; its REST API is under /api. */
  webUrl: string;
  started: boolean;
}

/** Messages kept in the inbox; the oldest go first. */
const KEEP = 500;

export const localMailWebUrl = () => `http://127.0.0.1:${stackPorts.mailWeb}`;

export async function startLocalMail(): Promise<LocalMail> {
  const smtpUrl = `smtp://127.0.0.1:${stackPorts.mailSmtp}`;
  const webUrl = localMailWebUrl();
  const healthy = () => pingHttp(`${webUrl}/api/healthz`);
  if (await healthy().catch(() => false)) return { smtpUrl, webUrl, started: false };
  mkdirSync(stackPaths.mail, { recursive: true });
  spawnDetached({
    name: 'mail',
    command: process.execPath,
    args: [
      // The package exports only its library (dist/index.js); its command sits beside it.
      join(dirname(fileURLToPath(import.meta.resolve('maildev'))), 'bin', 'maildev.js'),
      '--smtp',
      String(stackPorts.mailSmtp),
      '--ip',
      '127.0.0.1',
      '--web',
      String(stackPorts.mailWeb),
      '--web-ip',
      '127.0.0.1',
      '--mail-directory',
      stackPaths.mail,
      '--max-emails',
      String(KEEP),
    ],
  });
  await waitFor('the mail catcher (MailDev)', healthy, { log: logFile('mail') });
  return { smtpUrl, webUrl, started: true };
}

export async function stopLocalMail(): Promise<boolean> {
  if (runningPid('mail') === undefined) return false;
  return stopProcess('mail');
}
