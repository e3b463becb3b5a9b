/**
 * Text a spreadsheet would read as a formula (or a prefix that some strip before one): `=`, `+`,
 * `-`, `@`, tab and carriage return. Symbol, file and section names come from uploads, so an
 * export opened in a spreadsheet must never evaluate them (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180 CSV: fields with commas, quotes or line breaks are quoted, quotes doubled. Text that
 * starts like a formula gets a leading `'`, which spreadsheets show as text; numbers (negative
 * deltas too) stay numbers.
 */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value !== 'number' && typeof value !== 'bigint' && FORMULA_START.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<T>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
