import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Project API keys look like `mt_<publicId>_<secret>`: 16 hex characters of public id (finds the
 * row, safe to show), then 43 base64url characters (256 random bits) of secret. Only a salted
 * hash of the secret is stored.
 */
export const API_KEY_PREFIX = 'mt_';
const KEY_PATTERN = /^mt_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const HASH_SCHEME = 'sha256';

export interface ParsedApiKey {
  publicId: string;
  secret: string;
}

export interface GeneratedApiKey extends ParsedApiKey {
  /** The whole key, shown to the user once. */
  key: string;
}

export function generateApiKey(): GeneratedApiKey {
  const publicId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { publicId, secret, key: `${API_KEY_PREFIX}${publicId}_${secret}` };
}

/** Null for anything that is not shaped like one of our keys (no database lookup needed). */
export function parseApiKey(raw: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(raw.trim());
  return match ? { publicId: match[1]!, secret: match[2]! } : null;
}

/** What the UI shows after creation: the prefix and public id, never the secret. */
export function maskApiKey(publicId: string): string {
  return `${API_KEY_PREFIX}${publicId}_${'•'.repeat(8)}`;
}

/**
 * Secrets carry 256 random bits, so a fast salted SHA-256 is as safe as a slow KDF here (no
 * dictionary to attack) and keeps key checks off the upload's latency budget. The salt makes
 * equal secrets hash differently and stops precomputed tables.
 */
export function hashApiKeySecret(secret: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `${HASH_SCHEME}$${salt}$${digest(salt, secret)}`;
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function verifyApiKeySecret(secret: string, stored: string): boolean {
  const [scheme, salt, expected] = stored.split('$');
  if (scheme !== HASH_SCHEME || !salt || !expected) return false;
  const actual = Buffer.from(digest(salt, secret));
  const wanted = Buffer.from(expected);
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

function digest(salt: string, secret: string): string {
  return createHash('sha256').update(salt).update('\0').update(secret).digest('base64url');
}
