import { readStackEnv } from '@memtrail/local-stack';

// The local stack's mail catcher (MailDev, deploy/local/src/mail.ts): mail the gateway sends
// without an SMTP server of the user's lands in its inbox, read here through its REST API.

interface CaughtMail {
  subject: string;
  text?: string;
  to: { address: string }[];
}

/** The inbox's address, or undefined when the stack sends mail elsewhere. */
export function mailboxUrl(): string | undefined {
  return process.env.MAIL_WEB_URL ?? readStackEnv().MAIL_WEB_URL;
}

/**
 * The link containing `path` in the newest mail to `to` that has one, waiting (bounded) for it
 * to arrive.
 */
export async function newestLink(to: string, path: string, timeoutMs = 15_000): Promise<string> {
  const inbox = mailboxUrl();
  if (!inbox)
    throw new Error('No mail catcher: MAIL_WEB_URL is unset and .data/stack.env has none');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await (await fetch(`${inbox}/api/email`)).json()) as CaughtMail[];
    // The API lists mail in arrival order (its times have whole seconds only): newest last.
    const link = mails
      .filter((mail) => mail.to.some((r) => r.address.toLowerCase() === to.toLowerCase()))
      .reverse()
      .flatMap((mail) => mail.text?.match(/https?:\/\/\S+/g) ?? [])
      .find((candidate) => candidate.includes(path));
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`No ${path} link mailed to ${to} (inbox ${inbox})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
