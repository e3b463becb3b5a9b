import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './manifests.js';
import { SERVICE_CONFIGS } from './service-configs.js';

describe('docs/operations.md configuration reference', () => {
  const text = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');

  it.each(Object.keys(SERVICE_CONFIGS) as (keyof typeof SERVICE_CONFIGS)[])(
    'lists every variable the %s reads',
    (service) => {
      const variables = Object.keys(new SERVICE_CONFIGS[service]());
      // Required variables have no default, so they are not own keys of a fresh instance.
      const required = ['DATABASE_URL', 'REDIS_URL', 'CLICKHOUSE_URL'].filter((v) =>
        readFileSync(join(repoRoot, 'services', service, 'src', 'config.ts'), 'utf8').includes(
          `${v}!:`,
        ),
      );
      expect(variables.length).toBeGreaterThan(service === 'gateway' ? 40 : 8);
      for (const variable of [...variables, ...required]) {
        expect({ variable, documented: text.includes(`\`${variable}\``) }).toEqual({
          variable,
          documented: true,
        });
      }
    },
  );
});
