/**
 * The response envelope of every core-service call (product spec §3, §7): `{status, type, error, data}`.
 * On success `type` and `error` are null; on failure `data` is null and `type` names the error kind
 * the web shows as `{type or Error}: {error}` (spec §8).
 */
export interface SuccessEnvelope<T> {
  status: 'success';
  type: null;
  error: null;
  data: T;
}

export interface ErrorEnvelope {
  status: 'error';
  type: string;
  error: string;
  data: null;
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { status: 'success', type: null, error: null, data };
}

/**
 * The success envelope around data already serialised as JSON: the same text as
 * `JSON.stringify(success(data))`, without parsing the data to build it.
 */
export function successJson(dataJson: string): string {
  return `{"status":"success","type":null,"error":null,"data":${dataJson}}`;
}

export function failure(type: string, error: string): ErrorEnvelope {
  return { status: 'error', type, error, data: null };
}
