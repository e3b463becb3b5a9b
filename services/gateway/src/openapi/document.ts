import { ROUTE_DOCS, type RouteDoc } from './catalogue.js';
import type { HttpRoute } from './routes.js';

type Json = Record<string, unknown>;

/** `/api/:project/targets` → `/api/{project}/targets`, with the parameter names. */
function toOpenApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

const ENVELOPE: Json = {
  type: 'object',
  description: 'Every API answer: {status, type, error, data}',
  properties: {
    status: { type: 'integer' },
    type: { type: 'string' },
    error: { type: 'string', nullable: true },
    data: {},
  },
};

function operation(route: HttpRoute, doc: RouteDoc | undefined, params: string[]): Json {
  const security =
    doc?.auth === 'bearer'
      ? [{ bearer: [] }]
      : doc?.auth === 'apiKey'
        ? [{ apiKey: [] }]
        : doc?.auth === 'admin'
          ? [{ adminToken: [] }]
          : [];
  return {
    summary: doc?.summary ?? `${route.method} ${route.path}`,
    tags: [doc?.tag ?? route.path.split('/')[1] ?? 'other'],
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
    security,
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      {
        name: 'X-Request-Id',
        in: 'header',
        required: false,
        description: 'Correlates log lines across services; echoed in the response',
        schema: { type: 'string' },
      },
    ],
    ...(doc?.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: {} } } } }
      : {}),
    responses: {
      default: {
        description: 'Envelope with the result or the error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
    },
  };
}

/**
 * The gateway's OpenAPI 3.0 document, built from the routes actually registered, with the
 * descriptions of catalogue.ts.
 */
export function buildOpenApiDocument(
  routes: HttpRoute[],
  version: string,
  serverUrl: string,
): Json {
  const paths: Record<string, Json> = {};
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key) || route.method === 'HEAD') continue;
    seen.add(key);
    const { path, params } = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, ROUTE_DOCS[key], params);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Memtrail API',
      version,
      description:
        'The gateway: accounts, projects, targets, budgets, report uploads and every read of the web app.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Envelope: ENVELOPE },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'A project API key' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
      },
    },
  };
}
