import { createHash, randomBytes } from 'node:crypto';

/** Random bearer secrets (refresh tokens, mail links, hand-off codes): 256 bits, URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens are stored as their SHA-256 only. They carry 256 random bits, so an unsalted fast hash
 * is enough, and it lets a presented token be found by an indexed equality lookup.
 */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
