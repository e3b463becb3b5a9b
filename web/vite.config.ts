import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The gateway (the "core service") serves the built app and every backend path at one origin.
// In development Vite serves the app and forwards those paths, so the browser code never needs
// to know a second origin. CORE_URL matches the variable the services use (DESIGN §5).
const coreUrl = process.env.CORE_URL ?? 'http://localhost:5000';
// '/auth' alone is the sign-in page of the app; only the endpoints below it are the backend's.
const backendPaths = ['/api', '^/auth/', '/readyz', '/healthz', '/upload'];

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Shared rules (validation, envelope) come from the contracts sources, so the web never
    // bundles a stale build of them.
    alias: {
      '@memtrail/contracts': fileURLToPath(
        new URL('../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  server: {
    proxy: Object.fromEntries(backendPaths.map((path) => [path, { target: coreUrl }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Spec §7: lazy chunks are served from static/js. Keeping every emitted file under static/
    // also lets the gateway give them long-lived cache headers without touching index.html.
    assetsDir: 'static',
    rolldownOptions: {
      output: {
        entryFileNames: 'static/js/[name]-[hash].js',
        chunkFileNames: 'static/js/[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.css'))
            ? 'static/css/[name]-[hash][extname]'
            : 'static/media/[name]-[hash][extname]',
      },
    },
  },
});
