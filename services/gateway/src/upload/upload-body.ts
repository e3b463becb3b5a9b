import type { NextFunction, Request, Response } from 'express';
import { tooLarge, type RawUpload } from './decode/decode-upload.js';

type UploadRequest = Request & { uploadBody?: RawUpload; _body?: boolean };

export function uploadBodyOf(req: Request): RawUpload {
  const body = (req as UploadRequest).uploadBody;
  if (!body) throw new Error('uploadBodyOf: the upload body parser did not run for this route');
  return body;
}

function readRaw(req: Request, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > maxBytes) {
      req.resume();
      return reject(tooLarge(maxBytes));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/**
 * Express middleware for the upload routes: reads the body itself (up to `maxBytes`) and keeps
 * the bytes as sent; decoding waits until the API key is checked, so unauthenticated requests
 * cost no decompression or parsing. It runs before the app's JSON parser, whose small limit
 * suits every other route, and marks the body as read so that parser skips it.
 */
export function uploadBodyParser(maxBytes: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const request = req as UploadRequest;
    if (req.method !== 'POST') return next();
    request._body = true;
    const encoding = String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    readRaw(req, maxBytes)
      .then((bytes) => {
        request.uploadBody = { bytes, encoding };
        next();
      })
      .catch(next);
  };
}
