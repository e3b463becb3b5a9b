import { gzipSync } from 'node:zlib';
import { BLOCK_UPLOAD_TYPE, type ApiJson, type UploadEnvelope } from '@memtrail/contracts';
import { encodeBlockUpload } from '@memtrail/symbol-blocks';
import { projectHeader } from '../context.js';
import { HttpError, sendWithRetry, type RetryPolicy } from './http.js';
import { uploadUrl } from './protocol.js';

export class UploadRejected extends Error {
  constructor(
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'UploadRejected';
  }
}

export interface UploadRequest {
  apiUrl: string;
  apiKey: string;
  /** The project an organisation CI token uploads to. */
  project?: string;
  envelope: UploadEnvelope;
  userAgent: string;
  policy: RetryPolicy;
  log: (line: string) => void;
}

/** Why a 2xx response still means failure, with the quota details the service sends. */
function rejection(body: Record<string, unknown>): string {
  const lines = [
    `Error: ${String(body.type ?? 'UploadError')} - ${String(body.error ?? 'upload was not accepted')}`,
  ];
  if (body.type === 'UploadLimitExceededError') {
    lines.push(
      `Uploads this period: ${String(body.upload_count_monthly ?? '?')} of ${String(body.monthly_upload_limit ?? '?')}` +
        ` (total ${String(body.upload_count_total ?? '?')}, period ${String(body.period_start ?? '?')} – ${String(body.period_end ?? '?')})`,
    );
  }
  if (typeof body.upgrade_url === 'string') lines.push(`Upgrade: ${body.upgrade_url}`);
  return lines.join('\n');
}

/** Answers to the block form that mean the server does not take it (an older or other server). */
const BLOCK_FORM_REFUSED = new Set([400, 415, 422]);

/**
 * POSTs the report gzip-compressed (reports compress ~15×) and returns the parsed success body.
 * A full build goes in block form: split into content-addressed blocks here, so the server
 * checks only the blocks its target lacks instead of parsing and splitting every symbol
 * (docs/query.md). A server that refuses that form gets the JSON envelope instead. Rejects with
 * HttpError for transport/HTTP failures and UploadRejected when the server answers 2xx without
 * `success: true`.
 */
export async function postUpload(request: UploadRequest): Promise<ApiJson<'POST /upload'>> {
  const { metadata } = request.envelope;
  if (metadata.identical !== true && metadata.build_failed !== true) {
    try {
      return await send(request, BLOCK_UPLOAD_TYPE, encodeBlockUpload(request.envelope));
    } catch (error) {
      const status = error instanceof HttpError ? error.response?.status : undefined;
      if (status === undefined || !BLOCK_FORM_REFUSED.has(status)) throw error;
      request.log(`the server did not take the block form (${status}); sending the report as JSON`);
    }
  }
  return send(request, 'application/json', Buffer.from(JSON.stringify(request.envelope)));
}

async function send(
  request: UploadRequest,
  contentType: string,
  body: Buffer,
): Promise<ApiJson<'POST /upload'>> {
  const url = uploadUrl(request.apiUrl);
  const response = await sendWithRetry(
    {
      method: 'POST',
      url,
      headers: {
        'Content-Type': contentType,
        'Content-Encoding': 'gzip',
        Authorization: `Bearer ${request.apiKey}`,
        'User-Agent': request.userAgent,
        Accept: 'application/json',
        ...projectHeader(request.project),
      },
      body: gzipSync(body),
    },
    request.policy,
    request.log,
  );
  const json = response.json as Record<string, unknown> | undefined;
  if (!json || typeof json !== 'object') {
    throw new UploadRejected(
      `${url} answered ${response.status} with a body that is not JSON: ${response.text.slice(0, 200)}`,
      undefined,
    );
  }
  if (json.success !== true) throw new UploadRejected(rejection(json), json);
  return json as unknown as ApiJson<'POST /upload'>;
}
