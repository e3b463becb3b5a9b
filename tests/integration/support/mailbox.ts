import { SMTPServer } from 'smtp-server';
import { freePort } from '@memtrail/testing';

/** A real SMTP server that keeps every message it receives. */
export async function startMailbox(): Promise<{
  server: SMTPServer;
  port: number;
  messages: string[];
}> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks).toString('utf8'));
        done();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port, messages };
}

/** The first link in a captured message to `path`, with quoted-printable undone. */
export function linkIn(raw: string, path: string): string {
  const decoded = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const match = new RegExp(`https?://[^\\s"<>]*${path.replace(/[/?]/g, '\\$&')}[^\\s"<>]*`).exec(
    decoded,
  );
  if (!match) throw new Error(`no ${path} link in mail:\n${decoded}`);
  return match[0].replace(/&amp;/g, '&');
}
