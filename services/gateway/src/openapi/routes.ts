import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';

export interface HttpRoute {
  method: string;
  /** Express pattern, e.g. /api/projects/:id */
  path: string;
}

const paths = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? value.map(String) : [String(value)];

/** `api/:project` + `:target/heads` → `/api/:project/:target/heads`. */
const join = (prefix: string, path: string) =>
  `/${[prefix, path]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

/** `/api/:project/targets` → `/api/{project}/targets`, as the OpenAPI document names it. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Every route of every controller, read from Nest's own route metadata (the decorators), so the
 * OpenAPI document can be checked against what is actually served.
 */
export function listRoutes(app: INestApplication): HttpRoute[] {
  const scanner = new MetadataScanner();
  const routes = new Map<string, HttpRoute>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const prefix of paths(Reflect.getMetadata(PATH_METADATA, metatype))) {
        for (const name of scanner.getAllMethodNames(prototype)) {
          const handler = prototype[name] as object;
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (method === undefined) continue;
          for (const path of paths(Reflect.getMetadata(PATH_METADATA, handler))) {
            const route = { method: RequestMethod[method], path: join(prefix, path) };
            routes.set(`${route.method} ${route.path}`, route);
          }
        }
      }
    }
  }
  return [...routes.values()];
}
