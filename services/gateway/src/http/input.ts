import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { operations, type OperationKey, type Operations } from '@memtrail/contracts/schemas';
import type { z } from 'zod';

/** A rule shared with the web forms, checked before the schema: its sentence is the 400. */
export type InputRule = (value: unknown) => string | null;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A request part checked against its schema: the first problem answers 400 with the schema's
 * sentence. A missing or non-object body or query reads as empty, so each field reports what
 * is missing.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  rule?: InputRule,
): z.output<S> {
  const problem = rule?.(value);
  if (problem) throw new BadRequestException(problem);
  const result = schema.safeParse(isRecord(value) ? value : {});
  if (!result.success) throw new BadRequestException(result.error.issues[0]!.message);
  return result.data;
}

type Part = 'body' | 'query' | 'path';
/** The operations that have a schema for `part`. */
type With<P extends Part> = {
  [K in OperationKey]: Operations[K] extends Record<P, z.ZodType> ? K : never;
}[OperationKey];
type Parsed<K extends OperationKey, P extends Part> =
  Operations[K] extends Record<P, infer S> ? (S extends z.ZodType ? z.output<S> : never) : never;

/** The parsed body, query and path parameters of operation `K`. */
export type BodyOf<K extends With<'body'>> = Parsed<K, 'body'>;
export type QueryOf<K extends With<'query'>> = Parsed<K, 'query'>;
export type PathOf<K extends With<'path'>> = Parsed<K, 'path'>;

const pipe = (schema: z.ZodType, rule?: InputRule): PipeTransform => ({
  transform: (value: unknown) => parseInput(schema, value, rule),
});
const schemaOf = (key: OperationKey, part: Part) =>
  (operations[key] as unknown as Record<Part, z.ZodType>)[part];

/**
 * `@Body(bodyOf('POST /api/projects'))`, `@Query(queryOf(…))`, `@Param(pathOf(…))`: the request
 * part checked by the schema the OpenAPI document gives for that operation.
 */
export const bodyOf = (key: With<'body'>, rule?: InputRule) => pipe(schemaOf(key, 'body'), rule);
export const queryOf = (key: With<'query'>) => pipe(schemaOf(key, 'query'));
export const pathOf = (key: With<'path'>) => pipe(schemaOf(key, 'path'));
