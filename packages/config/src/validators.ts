import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { IsBoolean, IsUrl, ValidateBy } from 'class-validator';

/** Decorators for the connection URLs every service validates the same way. */
const url = (protocols: string[]) =>
  IsUrl(
    { protocols, require_tld: false, require_protocol: true, allow_underscores: true },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}` },
  );

export const IsPostgresUrl = () => url(['postgres', 'postgresql']);
export const IsRedisUrl = () => url(['redis', 'rediss']);
export const IsHttpUrl = () => url(['http', 'https']);

/**
 * A boolean variable: `true`/`false`/`1`/`0`/`yes`/`no`. Implicit conversion would read the
 * string "false" as true, so the raw value is parsed here; anything else fails validation.
 */
export const BooleanEnv = () => (target: object, key: string) => {
  Transform(({ obj }) => {
    const raw = (obj as Record<string, unknown>)[key];
    if (typeof raw === 'boolean' || raw === undefined) return raw;
    const text = String(raw).trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(text)) return true;
    if (['false', '0', 'no', 'off'].includes(text)) return false;
    return raw;
  })(target, key);
  IsBoolean({ message: `${key} must be true or false` })(target, key);
};

const SECRET_METADATA = 'memtrail:secret';

/** Values published in this repository's history as examples: anyone can read them. */
const PUBLISHED = [
  'change-me-this-development-secret-is-not-safe',
  'development-only-secret-of-at-least-32-chars',
];

/**
 * Bits of entropy a secret shows at most: its length times the Shannon entropy of its own
 * characters. Random output of `openssl rand -hex 16` shows about 110 (never below 80 in 200k
 * draws); a repeated word far less.
 */
function estimatedBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const c of secret) counts.set(c, (counts.get(c) ?? 0) + 1);
  const length = [...secret].length;
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / length) * Math.log2(count / length);
  return perCharacter * length;
}

/** Why a value is not a usable secret, or null when it is. */
export function secretWeakness(value: unknown): string | null {
  const advice = 'generate one with `openssl rand -hex 32`';
  if (typeof value !== 'string')
    return `must be set to a random value of at least 32 characters: ${advice}`;
  if (value.length < 32) return `must be at least 32 characters: ${advice}`;
  if (/change-?me/i.test(value) || PUBLISHED.includes(value))
    return `is a published placeholder: ${advice}`;
  if (estimatedBits(value) < 64) return `is too predictable (repeated characters): ${advice}`;
  return null;
}

/**
 * A secret key (signing keys, shared secrets): required, strong, and never echoed by a config
 * error (loadConfig shows its length instead of its value).
 */
export const IsSecret = () => (target: object, key: string) => {
  Reflect.defineMetadata(SECRET_METADATA, true, target, key);
  ValidateBy({
    name: 'isSecret',
    validator: {
      validate: (value: unknown) => secretWeakness(value) === null,
      defaultMessage: (args) => `${args?.property} ${secretWeakness(args?.value)}`,
    },
  })(target, key);
};

/** Whether `key` of a config object holds a secret (see IsSecret). */
export const isSecretProperty = (config: object, key: string): boolean =>
  Reflect.getMetadata(SECRET_METADATA, config, key) === true;
