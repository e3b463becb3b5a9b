import type { Request, Response } from 'express';

/** Binds a started OAuth or SSO flow to the browser that started it (login-CSRF defence). */
export const STATE_COOKIE = 'mt_oauth_state';
/** Sent to both OAuth (`/auth/oauth/…`) and SSO (`/auth/sso/…`) callbacks. */
const PATH = '/auth';

export const stateCookie = {
  set(res: Response, state: string, origin: string): void {
    res.cookie(STATE_COOKIE, state, {
      httpOnly: true,
      sameSite: 'lax',
      secure: origin.startsWith('https:'),
      path: PATH,
      maxAge: 600_000,
    });
  },
  read(req: Request): string | undefined {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [key, ...value] = part.trim().split('=');
      if (key === STATE_COOKIE) return decodeURIComponent(value.join('='));
    }
    return undefined;
  },
  clear(res: Response): void {
    res.clearCookie(STATE_COOKIE, { path: PATH });
  },
};
