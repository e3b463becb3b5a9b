import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/** Paths owned by the API: they must 404 as JSON, never fall back to the web app's HTML. */
const API_PREFIXES = ['/api', '/upload', '/summary', '/healthz', '/readyz', '/metrics', '/docs'];

/** `/auth` itself is the sign-in page; only the paths below it are the auth API. */
const isApiPath = (path: string) =>
  path.startsWith('/auth/') ||
  API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Serves the built web app: hashed assets with a long cache, and index.html (never cached, so a
 * deploy takes effect at once) for every other GET that a browser navigates to — the client-side
 * router decides what to show, including redirecting unknown paths to '/'.
 */
export function serveWeb(app: NestExpressApplication, distDir: string): boolean {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return false;
  app.useStaticAssets(join(distDir, 'static'), {
    prefix: '/static',
    immutable: true,
    maxAge: '1y',
  });
  app.useStaticAssets(distDir, { index: false, maxAge: '1h' });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return true;
}
