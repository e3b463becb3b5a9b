import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { BLOCK_UPLOAD_TYPE } from '@memtrail/contracts';
import { sendContinue } from '../http/expect-continue.js';
import { tooLarge, type RawUpload } from './decode/decode-upload.js';
import type { AdmissionTicket } from './upload-admission.js';

const DEFERRED = Symbol('memtrail.deferredUploadBody');

/**
 * Express middleware for the upload routes: leaves the body unread and marks it, so the app's
 * body parsers (whose small limit suits every other route) skip it (`isDeferredUpload`). The
 * controller reads it with readUploadBody once the API key and the admission are checked, so a
 * request with a bad key or over the budget never has its body held in memory.
 */
export function deferUploadBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'POST') (req as Request & { [DEFERRED]?: true })[DEFERRED] = true;
  next();
}

export const isDeferredUpload = (req: IncomingMessage): boolean =>
  (req as IncomingMessage & { [DEFERRED]?: true })[DEFERRED] === true;

/** Whether the body is an upload in block form (its media type, parameters aside). */
function isBlockUpload(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === BLOCK_UPLOAD_TYPE;
}

/**
 * Reads an upload's body as sent (decoding comes later, on a decode thread), up to `maxBytes`,
 * holding what it reads against the upload's admission ticket. On a refusal the rest of the
 * body is discarded unread, and the server's request time-out bounds how long that may take.
 */
export function readUploadBody(
  req: Request,
  maxBytes: number,
  ticket: AdmissionTicket,
): Promise<RawUpload> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const blockForm = isBlockUpload(req.headers['content-type']);
  if (req.readableEnded) {
    return Promise.reject(
      new Error('readUploadBody: the body was consumed before the upload read it'),
    );
  }
  if (req.res) sendContinue(req, req.res);
  // The chunks are kept as they arrived (each owns its memory) and moved to a decode thread,
  // which joins them: copying them into one buffer here would allocate the body a second time
  // on this thread, whose collector counts such memory and marks its whole heap again sooner.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: unknown) => {
      failed = true;
      chunks.length = 0;
      req.off('data', onData);
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) return fail(tooLarge(maxBytes));
      try {
        ticket.hold(size + chunk.length);
      } catch (error) {
        return fail(error);
      }
      chunks.push(chunk);
      size += chunk.length;
    };
    req.on('data', onData);
    req.once('end', () => {
      if (failed) return;
      resolve({ chunks, encoding, blockForm });
    });
    req.once('error', reject);
  });
}
