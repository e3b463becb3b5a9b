import { z } from 'zod';
import { createDocument, type oas31, type ZodOpenApiOperationObject } from 'zod-openapi';
import { ErrorEnvelopeSchema, successEnvelope } from '../schemas/common.js';
import {
  operations,
  type Access,
  type Answer,
  type Operation,
  type OperationKey,
} from '../schemas/operations.js';
import { ShieldsEndpointBadge } from '../schemas/public-access.js';
import { AuthError, authSuccess } from '../schemas/auth.js';

/**
 * The gateway's OpenAPI 3.1 document, derived from the operations table: every path, parameter,
 * body and answer typed by the schemas the gateway validates requests with.
 */

const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  bearer: [{ bearer: [] }],
  // An empty requirement: no credentials at all is accepted (public projects, tokenless uploads).
  reader: [{ bearer: [] }, { apiKey: [] }, {}],
  uploader: [{ apiKey: [] }, { oidc: [] }, {}],
  apiKey: [{ apiKey: [] }],
  admin: [{ adminToken: [] }],
  none: [],
};

const RequestIdHeader = z.object({
  'x-request-id': z
    .string()
    .optional()
    .describe('Correlates log lines across services; echoed in the response'),
});

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const text = (media: string, description: string) => ({
  [media]: { schema: z.string().meta({ contentMediaType: media, description }) },
});

function responses(answer: Answer): ZodOpenApiOperationObject['responses'] {
  switch (answer.kind) {
    case 'envelope':
      return {
        [answer.status]: { description: 'Success', content: json(successEnvelope(answer.data)) },
        '4XX': {
          description: 'Refused: the error names the reason',
          content: json(ErrorEnvelopeSchema),
        },
        '5XX': {
          description: 'Server or query service failure',
          content: json(ErrorEnvelopeSchema),
        },
      };
    case 'auth':
      return {
        200: { description: 'Success', content: json(authSuccess(answer.data)) },
        '4XX': { description: 'Refused: the error says why', content: json(AuthError) },
        '5XX': { description: 'Server failure', content: json(AuthError) },
      };
    case 'json': {
      const error = answer.error ?? ErrorEnvelopeSchema;
      return {
        200: { description: 'Success', content: json(answer.body) },
        ...(answer.also503 && {
          503: { description: 'A dependency is down', content: json(answer.body) },
        }),
        '4XX': {
          description: 'Refused: the error says why (429 and 503 with Retry-After)',
          content: json(error),
        },
        '5XX': { description: 'Server failure', content: json(error) },
      };
    }
    case 'file':
      return {
        200: {
          description: 'The file, as an attachment',
          content: Object.assign({}, ...answer.media.map((media) => text(media, 'The file'))),
        },
        '4XX': {
          description: 'Refused: the error names the reason',
          content: json(ErrorEnvelopeSchema),
        },
        '5XX': { description: 'Server failure', content: json(ErrorEnvelopeSchema) },
      };
    case 'redirect':
      return {
        302: {
          description: answer.to,
          headers: z.object({ location: z.string().describe('Where the browser goes next') }),
        },
      };
    case 'badge':
      return {
        200: {
          description: 'The badge',
          content: { ...text('image/svg+xml', 'SVG badge'), ...json(ShieldsEndpointBadge) },
        },
        304: { description: 'Unchanged since the ETag sent in If-None-Match' },
        404: {
          description: 'No such public project, target or region: a grey badge saying so',
          content: { ...text('image/svg+xml', 'SVG badge'), ...json(ShieldsEndpointBadge) },
        },
      };
  }
}

/** `GET /api/{project}/targets` → `getApiProjectTargets`. */
export function operationId(key: string): string {
  const [method, path] = key.split(' ') as [string, string];
  return `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`;
}

function operation(key: string, op: Operation): ZodOpenApiOperationObject {
  return {
    operationId: operationId(key),
    summary: op.summary,
    tags: [op.tag],
    security: SECURITY[op.access],
    requestParams: {
      ...(op.path && { path: op.path }),
      ...(op.query && { query: op.query as z.ZodObject }),
      header: op.headers ? RequestIdHeader.extend(op.headers.shape) : RequestIdHeader,
    },
    ...(op.body && {
      requestBody: {
        required: true,
        content: {
          ...json(op.body),
          ...(op.binaryBody && text(op.binaryBody.media, op.binaryBody.description)),
        },
      },
    }),
    responses: responses(op.answer),
  };
}

export function buildOpenApiDocument(version: string, serverUrl: string): oas31.OpenAPIObject {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const [key, op] of Object.entries(operations) as Array<[OperationKey, Operation]>) {
    const [method, path] = key.split(' ') as [string, string];
    (paths[path] ??= {})[method.toLowerCase()] = operation(key, op);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Memtrail API',
      version,
      description:
        'The gateway: accounts, organisations, projects, targets, budgets, report uploads and every read of the web app.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A user's access token",
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A project API key or organisation CI token',
        },
        oidc: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A GitHub Actions OIDC token',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
      },
    },
  });
}
