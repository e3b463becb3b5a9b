import { z } from 'zod';
import type { ErrorEnvelope, SuccessEnvelope } from '../envelope.js';

/** Times in answers: ISO 8601, as `Date.toISOString()` writes them. */
export const isoTime = z.iso.datetime({ offset: true });

/** Byte counts and deltas (deltas may be negative). */
export const bytes = z.int();

/** `{status: 'success', type: null, error: null, data}`: every `/api` answer (envelope.ts). */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), type: z.null(), error: z.null(), data });
}
// The envelope's TypeScript form (envelope.ts, which `success()` builds) and this schema agree.
const successCheck: z.ZodType<SuccessEnvelope<string>> = successEnvelope(z.string());
void successCheck;

/** Every `/api` error: the HTTP status with `{status: 'error', type, error, data: null}`. */
export const ErrorEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    type: z.string().describe("The error kind, e.g. BadRequestError; shown as '{type}: {error}'"),
    error: z.string().describe('What went wrong, naming the bad parameter or field'),
    data: z.null(),
  })
  .meta({ id: 'ErrorEnvelope' }) satisfies z.ZodType<ErrorEnvelope>;
