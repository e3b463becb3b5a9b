import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ClickHouseException } from '../errors.js';

type Codec = (data: Buffer, options?: object) => Promise<Buffer>;

const zstdDecompress = (zlib as unknown as Record<string, unknown>)['zstdDecompress'];
const zstdCompress = (zlib as unknown as Record<string, unknown>)['zstdCompress'];

const decoders: Record<string, Codec> = {
  gzip: promisify(zlib.gunzip) as Codec,
  'x-gzip': promisify(zlib.gunzip) as Codec,
  deflate: promisify(zlib.inflate) as Codec,
  br: promisify(zlib.brotliDecompress) as Codec,
};
const encoders: Record<string, Codec> = {
  gzip: promisify(zlib.gzip) as Codec,
  deflate: promisify(zlib.deflate) as Codec,
  br: promisify(zlib.brotliCompress) as Codec,
};
// zstd arrived in node:zlib with Node 22.15; offer it only where it exists.
if (typeof zstdDecompress === 'function') {
  decoders['zstd'] = promisify(zstdDecompress as typeof zlib.gunzip) as Codec;
}
if (typeof zstdCompress === 'function') {
  encoders['zstd'] = promisify(zstdCompress as typeof zlib.gzip) as Codec;
}

/** Decodes a request body according to its Content-Encoding header. */
export async function decodeBody(
  body: Buffer,
  contentEncoding: string | undefined,
): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let data = body;
  // Codings are listed in the order they were applied; undo them in reverse.
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (!decode) {
      throw ClickHouseException.of(
        'CANNOT_DECOMPRESS',
        `Unknown HTTP Content-Encoding '${coding}'`,
      );
    }
    try {
      data = await decode(data);
    } catch (err) {
      throw ClickHouseException.of(
        coding === 'gzip' || coding === 'deflate' ? 'ZLIB_INFLATE_FAILED' : 'CANNOT_DECOMPRESS',
        `Cannot decode the ${coding} request body: ${(err as Error).message}`,
        err,
      );
    }
  }
  return data;
}

/** The first codec in Accept-Encoding that this server can produce. */
export function pickEncoding(acceptEncoding: string | undefined): string | undefined {
  if (!acceptEncoding) return undefined;
  for (const item of acceptEncoding.split(',')) {
    const [name = '', ...rest] = item.trim().toLowerCase().split(';');
    const q = rest.map((r) => /^\s*q=([\d.]+)/.exec(r)?.[1]).find((v) => v !== undefined);
    if (q !== undefined && Number(q) === 0) continue;
    if (encoders[name]) return name;
  }
  return undefined;
}

export async function encodeBody(body: Buffer, encoding: string, level?: number): Promise<Buffer> {
  const encode = encoders[encoding];
  if (!encode) throw new Error(`Unsupported response encoding ${encoding}`);
  const options =
    level !== undefined && (encoding === 'gzip' || encoding === 'deflate')
      ? { level: Math.min(9, Math.max(0, level)) }
      : undefined;
  return encode(body, options);
}
