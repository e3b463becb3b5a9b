/**
 * Cuts a file into statements at `;` (ClickHouse's HTTP interface runs one
 * statement per request). Semicolons inside string literals, quoted
 * identifiers and comments do not count; blocks holding only comments are
 * dropped.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const statement = text.slice(start, end).trim();
    if (stripComments(statement) !== '') statements.push(statement);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      i = skipQuoted(text, i, c);
    } else if (c === '-' && text[i + 1] === '-') {
      i = lineEnd(text, i);
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ';') {
      push(i);
      start = ++i;
    } else {
      i++;
    }
  }
  push(text.length);
  return statements;
}

/** Index just past a quoted literal or identifier starting at `open`. */
function skipQuoted(text: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (text[i + 1] === quote)
        i += 2; // a doubled quote stands for itself
      else return i + 1;
    } else {
      i++;
    }
  }
  return i;
}

function lineEnd(text: string, from: number): number {
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol + 1;
}

export function stripComments(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      i = lineEnd(sql, i);
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.trim();
}
