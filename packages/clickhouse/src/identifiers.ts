const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Database names end up in DDL, where server-side parameters cannot be used,
 * so they are restricted to plain identifiers and back-quoted as well.
 */
export function quoteDatabaseName(name: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new Error(
      `Invalid ClickHouse database name '${name}': use letters, digits and underscores, not starting with a digit`,
    );
  }
  return `\`${name}\``;
}
