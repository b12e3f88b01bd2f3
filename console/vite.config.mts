import { defineConfig } from 'vite';

/**
 * The console's build: served by the service at /app from dist/console (no dev server in use). No
 * inline script or style is emitted, so the host's Content-Security-Policy needs no unsafe-inline.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  // public/: the service worker (sw.js, at /app/sw.js for its scope /app/) and the icons the manifest names, copied as they are.
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
