/**
 * The few pieces of SQL this server writes itself (SET / USE statements) and
 * the shallow statement inspection it needs. Values are always rendered as
 * quoted literals, never spliced in raw.
 */

/** A ClickHouse string literal: backslash and quote are the only characters
 * that can end or alter a quoted string, so both are escaped. */
export function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A back-quoted identifier, safe for any database name. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidSettingName(name: string): boolean {
  return SETTING_NAME.test(name);
}

/** Strips leading whitespace, `--`/`#` line comments and block comments. */
function skipLeadingNoise(sql: string): string {
  let rest = sql;
  for (;;) {
    const trimmed = rest.replace(/^\s+/, '');
    if (trimmed.startsWith('--') || trimmed.startsWith('#')) {
      const eol = trimmed.indexOf('\n');
      rest = eol < 0 ? '' : trimmed.slice(eol + 1);
    } else if (trimmed.startsWith('/*')) {
      const end = trimmed.indexOf('*/');
      rest = end < 0 ? '' : trimmed.slice(end + 2);
    } else {
      return trimmed;
    }
  }
}

/** The first keyword of the statement, upper-cased ('' if there is none). */
export function leadingKeyword(sql: string): string {
  const match = /^[A-Za-z]+/.exec(skipLeadingNoise(sql));
  return match ? match[0].toUpperCase() : '';
}

export function isBlank(sql: string): boolean {
  return skipLeadingNoise(sql).replace(/;\s*$/, '').trim() === '';
}

/** The format named by a trailing `FORMAT <name>` clause, if any. */
export function trailingFormat(sql: string): string | undefined {
  const match = /\bFORMAT\s+([A-Za-z][A-Za-z0-9_]*)\s*;?\s*$/i.exec(sql);
  return match?.[1];
}

/**
 * True when a statement might leave state behind on the engine connection
 * (`SET ...`, `USE ...`). Deliberately over-approximate: a false positive only
 * costs one extra check after the query.
 */
export function mayChangeSessionState(sql: string): boolean {
  return /\b(SET|USE)\b/i.test(sql);
}

export function mayChangeDatabase(sql: string): boolean {
  return /\bUSE\b/i.test(sql);
}
