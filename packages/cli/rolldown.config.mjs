// Bundles the CLI with the private workspace packages it uses (@memtrail/report,
// @memtrail/contracts, @memtrail/symbol-blocks) into bundle/, straight from their TypeScript
// sources, so the published package has no dependencies and packing never depends on stale tsc
// output.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'rolldown';

const packages = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  input: { memtrail: 'src/bin.ts', index: 'src/index.ts' },
  platform: 'node',
  resolve: {
    alias: {
      '@memtrail/report': `${packages}report/src/index.ts`,
      '@memtrail/contracts': `${packages}contracts/src/index.ts`,
      '@memtrail/symbol-blocks': `${packages}symbol-blocks/src/index.ts`,
    },
    // NodeNext sources import './x.js' for './x.ts'.
    extensionAlias: { '.js': ['.ts', '.js'] },
  },
  output: {
    dir: 'bundle',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name].js',
    cleanDir: true,
  },
});
