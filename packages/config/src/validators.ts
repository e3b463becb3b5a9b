import { IsUrl } from 'class-validator';

/** Decorators for the connection URLs every service validates the same way. */
const url = (protocols: string[]) =>
  IsUrl(
    { protocols, require_tld: false, require_protocol: true, allow_underscores: true },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}` },
  );

export const IsPostgresUrl = () => url(['postgres', 'postgresql']);
export const IsRedisUrl = () => url(['redis', 'rediss']);
export const IsHttpUrl = () => url(['http', 'https']);
