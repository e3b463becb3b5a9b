import type { MailMessage } from './mail.service.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(
  to: string,
  subject: string,
  lead: string,
  action: string,
  link: string,
  note: string,
): MailMessage {
  const text = `${lead}\n\n${action}: ${link}\n\n${note}\n`;
  const html =
    `<p>${escapeHtml(lead)}</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
    `<p>${escapeHtml(note)}</p>`;
  return { to, subject, text, html, link };
}

export function confirmationMail(to: string, link: string): MailMessage {
  return message(
    to,
    'Confirm your Memtrail account',
    'Welcome to Memtrail. Confirm your email address to finish creating your account.',
    'Confirm your email',
    link,
    'The link is valid for 24 hours. If you did not sign up, ignore this message.',
  );
}

/** To the owner of an address someone tried to sign up with again. */
export function accountExistsMail(to: string, link: string): MailMessage {
  return message(
    to,
    'Your Memtrail account',
    'Someone tried to create a Memtrail account with this email address, which already has one.',
    'Sign in',
    link,
    'If it was you, sign in (or use Forgot your password? there). If not, ignore this message: nothing was changed.',
  );
}

export function resetMail(to: string, link: string): MailMessage {
  return message(
    to,
    'Reset your Memtrail password',
    'Someone asked to reset the password of your Memtrail account.',
    'Choose a new password',
    link,
    'The link is valid for one hour. If you did not ask for it, ignore this message.',
  );
}

export function invitationMail(
  to: string,
  link: string,
  invite: {
    inviter: string | null;
    organization: string;
    project: string | null;
    role: string;
    days: number;
  },
): MailMessage {
  const where = invite.project
    ? `the project ${invite.project} of ${invite.organization}`
    : `the organisation ${invite.organization}`;
  const who = invite.inviter ?? 'An administrator';
  return message(
    to,
    `You are invited to ${invite.project ?? invite.organization} on Memtrail`,
    `${who} invited you to join ${where} on Memtrail as ${invite.role}.`,
    'Accept the invitation',
    link,
    `The link is valid for ${invite.days} days. Sign in or create an account with this email address to accept. If you did not expect this invitation, ignore this message.`,
  );
}
