// The admin app's build: Vite (Rolldown) bundles admin/src into admin/dist, served by the service at /admin.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  // No public/ folder: everything shipped is in src/ and gets a hashed name.
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The CSP allows no data: or inline sources; every asset is a file of its own.
    assetsInlineLimit: 0,
    // Every browser the app targets preloads modules itself: no polyfill in the bundle.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
