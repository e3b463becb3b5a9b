import type { NestExpressApplication } from '@nestjs/platform-express';

export interface HttpRoute {
  method: string;
  /** Express pattern, e.g. /api/projects/:id */
  path: string;
}

interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/**
 * The routes Nest registered on Express, read from the router once the app is initialised.
 * The OpenAPI document is built from these, so a new endpoint is never missing from it.
 */
export function listRoutes(app: NestExpressApplication): HttpRoute[] {
  const router = (app.getHttpAdapter().getInstance() as { router?: { stack: RouterLayer[] } })
    .router;
  if (!router) throw new Error('the Express router is not created yet: call app.init() first');
  const routes: HttpRoute[] = [];
  for (const layer of router.stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path });
      }
    }
  }
  return routes;
}
