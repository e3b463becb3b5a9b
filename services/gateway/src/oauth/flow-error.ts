import type { Response } from 'express';

/** A sign-in flow that cannot complete; the browser is sent to the site root with the reason. */
export class OAuthFlowError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Ends a provider's callback (OAuth or SSO) on the site root: `?code=` for the web app to
 * exchange, or `?error=…&error_description=…` when the flow could not complete.
 */
export async function redirectWithCode(
  res: Response,
  root: string,
  finish: () => Promise<string>,
): Promise<void> {
  try {
    const code = await finish();
    res.redirect(302, `${root}/?code=${encodeURIComponent(code)}`);
  } catch (error) {
    if (!(error instanceof OAuthFlowError)) throw error;
    const params = new URLSearchParams({ error: error.code, error_description: error.message });
    res.redirect(302, `${root}/?${params.toString()}`);
  }
}
