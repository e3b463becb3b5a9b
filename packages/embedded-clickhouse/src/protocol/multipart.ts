import { ClickHouseException } from '../errors.js';

export interface FormPart {
  name: string;
  filename?: string;
  value: Buffer;
}

/** The boundary of a `multipart/form-data` content type, if it is one. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Parses a multipart/form-data body. @clickhouse/client moves long query
 * parameters there (fields `query` and `param_<name>`) to keep URLs short.
 */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw malformed('no opening boundary');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') return parts;
    pos = skipLineBreak(body, pos);
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw malformed('part without header terminator');
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw malformed('part without closing boundary');
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw malformed('part without a name');
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const part: FormPart = { name, value: body.subarray(headerEnd + 4, next) };
    if (filename !== undefined) part.filename = filename;
    parts.push(part);
    pos = next + 2;
  }
}

function skipLineBreak(body: Buffer, pos: number): number {
  if (body[pos] === 0x0d && body[pos + 1] === 0x0a) return pos + 2;
  if (body[pos] === 0x0a) return pos + 1;
  return pos;
}

function malformed(reason: string): ClickHouseException {
  return ClickHouseException.of('BAD_ARGUMENTS', `Malformed multipart/form-data body: ${reason}`);
}
