import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

/** What the upload routes receive instead of a parsed body. */
export interface UploadBody {
  /** The parsed JSON document, not yet validated. */
  json: unknown;
  /** The document gzip-compressed, as stored: the client's own bytes when it sent gzip. */
  gzip: Buffer;
  /** Hex SHA-256 of the uncompressed document. */
  sha256: string;
}

type UploadRequest = Request & { uploadBody?: UploadBody; _body?: boolean };

export function uploadBodyOf(req: Request): UploadBody {
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

const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeException(`Request body exceeds the upload limit of ${maxBytes} bytes`);

async function decode(
  raw: Buffer,
  encoding: string,
  maxBytes: number,
): Promise<{ text: Buffer; gzip: Buffer }> {
  if (encoding === 'identity' || encoding === '') {
    // Fast compression: the payload is stored, not archived, and this runs per upload.
    return { text: raw, gzip: await gzipAsync(raw, { level: 1 }) };
  }
  if (encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw new BadRequestException(
      `Unsupported Content-Encoding "${encoding}": send JSON or gzip-compressed JSON`,
    );
  }
  try {
    return { text: await gunzipAsync(raw, { maxOutputLength: maxBytes }), gzip: raw };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || (error as RangeError).name === 'RangeError')
      throw tooLarge(maxBytes);
    throw new BadRequestException(`Request body is not valid gzip: ${(error as Error).message}`);
  }
}

/**
 * Express middleware for the upload routes: reads the body itself (gzip or plain JSON, up to
 * `maxBytes` both compressed and uncompressed), keeps the compressed bytes for storage and
 * parses the JSON. It runs before the app's JSON parser, whose small limit suits every other
 * route, and marks the body as read so that parser skips it.
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
      .then((raw) => {
        if (raw.length === 0)
          throw new BadRequestException('Request body is empty: send the report as JSON');
        return decode(raw, encoding, maxBytes);
      })
      .then(({ text, gzip: compressed }) => {
        let json: unknown;
        try {
          json = JSON.parse(text.toString('utf8'));
        } catch (error) {
          throw new BadRequestException(
            `Request body is not valid JSON: ${(error as Error).message}`,
          );
        }
        request.uploadBody = {
          json,
          gzip: compressed,
          sha256: createHash('sha256').update(text).digest('hex'),
        };
        next();
      })
      .catch(next);
  };
}
