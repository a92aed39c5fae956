import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const service = process.env.DASHBOARD_API ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root,
  base: '/dashboard/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inlined assets: the page's Content-Security-Policy allows data: images only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': service,
      '/uploads': service,
      '/api': service,
    },
  },
});
