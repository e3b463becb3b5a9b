import { createRequire } from 'node:module';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { buildOpenApiDocument } from '@memtrail/contracts/openapi';
import type { Request, Response } from 'express';

const require = createRequire(import.meta.url);
/** Swagger UI's files from the npm package: the docs page works without internet access. */
const swaggerUiDir: string = (
  require('swagger-ui-dist') as { getAbsoluteFSPath(): string }
).getAbsoluteFSPath();
/** From src/openapi and dist/openapi alike. */
const { version } = require('../../package.json') as { version: string };

/** No inline script, so the page also works under a strict Content-Security-Policy. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Memtrail API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/**
 * `GET /docs` (Swagger UI), `GET /docs/openapi.json` (the document, derived from the operation
 * schemas of @memtrail/contracts) and the UI's assets. The document is built on first request
 * and kept.
 */
export function serveApiDocs(app: NestExpressApplication, serverUrl: string): void {
  let document: string | undefined;
  app.useStaticAssets(swaggerUiDir, { prefix: '/docs/assets', index: false, maxAge: '1d' });
  app.use('/docs', (req: Request, res: Response, next: () => void) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/openapi.json') {
      document ??= JSON.stringify(buildOpenApiDocument(version, serverUrl));
      res.type('application/json').send(document);
    } else if (req.path === '/init.js') {
      res.type('application/javascript').send(INIT);
    } else if (req.path === '/' || req.path === '') {
      res.type('html').send(PAGE);
    } else {
      next();
    }
  });
}
