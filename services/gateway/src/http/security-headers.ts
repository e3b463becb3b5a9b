import { createHash } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { GatewayConfig } from '../config.js';
import { runtimeConfigScript, webRuntimeConfig } from '../web/runtime-config.js';

/** PostHog's US hosts (web/src/lib/analytics.ts): events go to one, the SDK's parts come from the other. */
const POSTHOG_HOSTS = ['https://us.i.posthog.com', 'https://us-assets.i.posthog.com'];

/** A year: what browsers' HSTS preload lists expect. */
const HSTS_MAX_AGE_S = 365 * 24 * 3600;

/**
 * The Content-Security-Policy of every answer. Scripts come from our origin only, plus the one
 * inline script that hands the web app its runtime config (admitted by its hash, computed from
 * the same config); PostHog's hosts only when analytics is configured. Nothing may frame the
 * app (clickjacking), post forms elsewhere, or load plugins.
 */
export function contentSecurityPolicy(config: GatewayConfig): Record<string, string[]> {
  const inline = createHash('sha256')
    .update(runtimeConfigScript(webRuntimeConfig(config)))
    .digest('base64');
  const posthog = config.WEB_POSTHOG_KEY ? POSTHOG_HOSTS : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'sha256-${inline}'`, ...posthog],
    'connect-src': ["'self'", ...posthog],
    'img-src': ["'self'", 'data:', 'blob:'],
    'style-src': ["'self'"],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Security headers on every answer (helmet): the policy above, `X-Content-Type-Options:
 * nosniff`, a same-origin referrer policy (reset links carry tokens), no `X-Powered-By`, and
 * HSTS when the request came over TLS — directly, or through the trusted proxies that set
 * `X-Forwarded-Proto` (TRUST_PROXY_HOPS). Badges are meant to be embedded on other sites.
 */
export function applySecurityHeaders(app: NestExpressApplication, config: GatewayConfig): void {
  app.disable('x-powered-by');
  app.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: false,
    }),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.secure) {
      res.setHeader('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_S}; includeSubDomains`);
    }
    if (req.path === '/badge' || req.path.startsWith('/badge/')) {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    next();
  });
}
