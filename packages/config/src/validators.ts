import { Transform } from 'class-transformer';
import { IsBoolean, IsUrl } from 'class-validator';

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
