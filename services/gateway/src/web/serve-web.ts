import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import serveStatic from 'serve-static';
import type { GatewayConfig } from '../config.js';
import { injectRuntimeConfig, webRuntimeConfig } from './runtime-config.js';

/** Paths owned by the API: they must 404 as JSON, never fall back to the web app's HTML. */
const API_PREFIXES = [
  '/api',
  '/upload',
  '/summary',
  '/badge',
  '/healthz',
  '/readyz',
  '/metrics',
  '/docs',
];

/** `/auth` itself is the sign-in page; only the paths below it are the auth API. */
const isApiPath = (path: string) =>
  path.startsWith('/auth/') ||
  API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * index.html with the runtime config injected, rendered once per build of the web app: the file
 * is read again only when its modification time changes, so rebuilding the app under a running
 * gateway (the local stack does not restart it for web changes) never serves stale asset names.
 */
function renderedIndex(file: string, config: GatewayConfig): () => Promise<string> {
  const runtime = webRuntimeConfig(config);
  let rendered: { mtimeMs: number; html: string } | undefined;
  return async () => {
    const { mtimeMs } = await stat(file);
    if (rendered?.mtimeMs !== mtimeMs) {
      rendered = { mtimeMs, html: injectRuntimeConfig(await readFile(file, 'utf8'), runtime) };
    }
    return rendered.html;
  };
}

/**
 * Serves the built web app: hashed assets with a long cache, and index.html (never cached, so a
 * deploy takes effect at once) for every other GET that a browser navigates to — the client-side
 * router decides what to show, including redirecting unknown paths to '/'.
 */
export function serveWeb(
  app: NestExpressApplication,
  distDir: string,
  config: GatewayConfig,
): boolean {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return false;
  const html = renderedIndex(index, config);
  const sendIndex = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    html().then(
      (body) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.type('html').send(body);
      },
      (error: unknown) => next(new Error(`serving ${index} failed`, { cause: error })),
    );
  };
  app.useStaticAssets(join(distDir, 'static'), {
    prefix: '/static',
    immutable: true,
    maxAge: '1y',
  });
  // Ahead of the static copy below, which would serve the file without its config.
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.path === '/index.html' ? sendIndex(req, res, next) : next(),
  );
  // The build's other files (public/), never looked for under an API path: that would cost
  // every API request a file-system lookup on libuv's pool before its route runs.
  const files = serveStatic(distDir, { index: false, maxAge: '1h' });
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiPath(req.path)
      ? next()
      : files(req, res, (error?: unknown) => (error ? next(error) : sendIndex(req, res, next))),
  );
  return true;
}
