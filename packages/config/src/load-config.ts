import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { isSecretProperty } from './validators.js';

/** Raised at start-up when the environment does not satisfy a service's config schema. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** A value as a config error may print it: secrets by length, URLs without passwords. */
function shown(config: object, key: string, value: string | undefined): string {
  if (value === undefined) return 'unset';
  if (isSecretProperty(config, key)) return `${[...value].length} characters`;
  return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@]*:)[^/@]*@/i, '$1***@'));
}

/** One line per variable, showing the raw value as written (not the converted one). */
function describe(
  config: object,
  errors: ValidationError[],
  raw: Record<string, string | undefined>,
): string[] {
  return errors.map((error) => {
    const value = shown(config, error.property, raw[error.property]);
    return `${error.property} (${value}): ${Object.values(error.constraints ?? {}).join('; ')}`;
  });
}

/**
 * Builds a config object from environment variables. The schema class names each variable as a
 * property with class-validator rules and a default; values are converted by their declared type.
 * Empty strings count as unset, so `FOO=` falls back to the default instead of failing oddly.
 */
export function loadConfig<T extends object>(
  schema: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const defined: Record<string, string> = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  const config = plainToInstance(schema, defined, {
    enableImplicitConversion: true,
    exposeDefaultValues: true,
    excludeExtraneousValues: false,
  });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(describe(config, errors, defined));
  // Keep only the schema's own keys: the rest of the environment is not configuration.
  const known = new Set(Object.keys(new schema()));
  for (const key of Object.keys(config)) {
    if (!known.has(key)) delete (config as Record<string, unknown>)[key];
  }
  return config;
}
