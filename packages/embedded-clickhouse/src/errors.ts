/**
 * ClickHouse-shaped errors. @clickhouse/client turns an error response into a
 * ClickHouseError by matching `Code: N. DB::Exception: message. (TYPE)` in the
 * body, so every failure this server reports — from the engine or from the
 * HTTP layer itself — is rendered in exactly that form.
 */

/** Error codes the HTTP layer raises itself (values as defined by ClickHouse). */
export const ErrorCodes = {
  BAD_ARGUMENTS: 36,
  NOT_IMPLEMENTED: 48,
  LOGICAL_ERROR: 49,
  SYNTAX_ERROR: 62,
  UNKNOWN_SETTING: 115,
  QUERY_IS_TOO_LARGE: 229,
  CANNOT_DECOMPRESS: 271,
  ZLIB_INFLATE_FAILED: 354,
  AUTHENTICATION_FAILED: 516,
} as const;

export type ErrorName = keyof typeof ErrorCodes;

export class ClickHouseException extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ClickHouseException';
  }

  static of(type: ErrorName, message: string, cause?: unknown): ClickHouseException {
    return new ClickHouseException(ErrorCodes[type], type, message, { cause });
  }

  /** The response body, in the form a ClickHouse server writes it. */
  toBody(version: string): string {
    const message = this.message.replace(/\.?\s*$/, '');
    return `Code: ${this.code}. DB::Exception: ${message}. (${this.type}) (version ${version})\n`;
  }
}

// The engine reports `Code: 60. DB::Exception: <message>. (UNKNOWN_TABLE)`,
// sometimes nested (`... Exception: Code: 60. DB::Exception: ...`); the last
// marker names the actual cause.
const ENGINE_ERROR =
  /Code: (\d+)\. (?:DB::)?Exception: ([\s\S]*?)\s*\(([A-Z0-9_]+)\)\s*(?:\(version [^)]*\)\s*)?$/;

/** Maps whatever the engine threw to a ClickHouseException, keeping its code. */
export function fromEngineError(err: unknown): ClickHouseException {
  if (err instanceof ClickHouseException) return err;
  const text = err instanceof Error ? err.message : String(err);
  const match = ENGINE_ERROR.exec(text.trim());
  if (match) {
    return new ClickHouseException(Number(match[1]), match[3]!, match[2]!, { cause: err });
  }
  const bare = /^Code: (\d+)\./.exec(text);
  if (bare) {
    return new ClickHouseException(Number(bare[1]), 'UNKNOWN_EXCEPTION', text, { cause: err });
  }
  return new ClickHouseException(ErrorCodes.LOGICAL_ERROR, 'LOGICAL_ERROR', text, { cause: err });
}

// HTTP status per exception type, following the ClickHouse HTTP handler: client
// mistakes are 4xx so callers and proxies do not retry them blindly.
const STATUS_BY_TYPE: Record<string, number> = {};
const assign = (status: number, types: string[]) => {
  for (const type of types) STATUS_BY_TYPE[type] = status;
};
assign(400, [
  'CANNOT_PARSE_TEXT',
  'CANNOT_PARSE_ESCAPE_SEQUENCE',
  'CANNOT_PARSE_QUOTED_STRING',
  'CANNOT_PARSE_DATE',
  'CANNOT_PARSE_DATETIME',
  'CANNOT_PARSE_NUMBER',
  'CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING',
  'CANNOT_PARSE_IPV4',
  'CANNOT_PARSE_IPV6',
  'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
  'CANNOT_PARSE_UUID',
  'CANNOT_READ_ARRAY_FROM_TEXT',
  'DUPLICATE_COLUMN',
  'ILLEGAL_COLUMN',
  'UNKNOWN_ELEMENT_IN_AST',
  'UNKNOWN_TYPE_OF_AST_NODE',
  'TOO_DEEP_AST',
  'TOO_BIG_AST',
  'UNEXPECTED_AST_STRUCTURE',
  'SYNTAX_ERROR',
  'INCORRECT_DATA',
  'TYPE_MISMATCH',
  'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
  'UNKNOWN_QUERY_PARAMETER',
  'BAD_QUERY_PARAMETER',
  'BAD_ARGUMENTS',
  'CANNOT_DECOMPRESS',
  'ZLIB_INFLATE_FAILED',
]);
assign(404, [
  'UNKNOWN_TABLE',
  'UNKNOWN_FUNCTION',
  'UNKNOWN_IDENTIFIER',
  'UNKNOWN_TYPE',
  'UNKNOWN_STORAGE',
  'UNKNOWN_DATABASE',
  'UNKNOWN_SETTING',
  'UNKNOWN_DIRECTION_OF_SORTING',
  'UNKNOWN_AGGREGATE_FUNCTION',
  'UNKNOWN_FORMAT',
  'UNKNOWN_DATABASE_ENGINE',
  'UNKNOWN_TYPE_OF_QUERY',
  'UNKNOWN_ROLE',
]);
assign(401, ['REQUIRED_PASSWORD']);
assign(403, [
  'UNKNOWN_USER',
  'WRONG_PASSWORD',
  'AUTHENTICATION_FAILED',
  'ACCESS_DENIED',
  'SET_NON_GRANTED_ROLE',
]);
assign(408, ['TIMEOUT_EXCEEDED']);
assign(411, ['HTTP_LENGTH_REQUIRED']);
assign(413, ['QUERY_IS_TOO_LARGE']);
assign(501, ['NOT_IMPLEMENTED']);
assign(503, ['SOCKET_TIMEOUT', 'CANNOT_OPEN_FILE', 'CANNOT_SCHEDULE_TASK']);

export function httpStatusFor(error: ClickHouseException): number {
  return STATUS_BY_TYPE[error.type] ?? 500;
}
