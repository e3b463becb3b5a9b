import type { ApiJson } from '@memtrail/contracts';

type SummaryResponse = ApiJson<'GET /summary'>;
import {
  apiKey,
  apiUrl,
  chosenProject,
  projectHeader,
  RuntimeError,
  userAgent,
  type CliIo,
} from '../context.js';
import { HttpError, retryPolicyFromEnv, sendWithRetry } from './http.js';
import { summaryUrl } from './protocol.js';

export interface SummaryRequest {
  sha: string;
  /** `--api-url`, else MEMTRAIL_API_URL, else the default server. */
  apiUrl?: string;
  /** `--api-key-env`. */
  apiKeyEnv?: string;
  /** `--project`, for an organisation CI token. */
  project?: string;
  command: string;
}

/** `GET /summary?commit=<sha>`: the raw answer, checked to be a successful summary. */
export async function fetchSummary(request: SummaryRequest, io: CliIo): Promise<SummaryResponse> {
  const summary = await fetchSummaryIfAny(request, io);
  if (!summary) {
    throw new RuntimeError(
      `cannot fetch the summary of ${request.sha}: the server has no report of this commit (no target has uploaded it yet)`,
    );
  }
  return summary;
}

/** The summary, or null when the server has no report of the commit (HTTP 404). */
export async function fetchSummaryIfAny(
  request: SummaryRequest,
  io: CliIo,
): Promise<SummaryResponse | null> {
  const key = apiKey(io.env, request.apiKeyEnv, request.command);
  const url = summaryUrl(apiUrl(request.apiUrl, io.env), request.sha);
  let body: unknown;
  try {
    const response = await sendWithRetry(
      {
        method: 'GET',
        url,
        headers: {
          Authorization: `Bearer ${key}`,
          'User-Agent': userAgent(io.env),
          Accept: 'application/json',
          ...projectHeader(chosenProject(request.project, io.env)),
        },
      },
      retryPolicyFromEnv(io.env),
      () => undefined,
    );
    body = response.json;
  } catch (error) {
    if (error instanceof HttpError && error.response?.status === 404) return null;
    throw new RuntimeError(
      `cannot fetch the summary of ${request.sha}: ${(error as Error).message}`,
    );
  }
  const summary = body as (Partial<SummaryResponse> & { error?: string }) | undefined;
  if (!summary || summary.success !== true || !summary.data) {
    throw new RuntimeError(
      `the server did not return a summary for ${request.sha}: ${summary?.error ?? 'no success in the response'}`,
    );
  }
  return summary as SummaryResponse;
}
