import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { ProxyOptions } from 'vite';

// In development the SPA talks to the API server on its own port; in production the server serves
// the built SPA itself, so these paths are same-origin there.
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const proxiedPaths = ['/api', '/meta', '/recipient', '/broadcast', '/healthz', '/webhooks'];

const proxy: ProxyOptions = {
  target: apiTarget,
  changeOrigin: true,
  // /broadcast and /broadcast/new are also SPA routes: a browser navigation (reload, typed URL) asks
  // for HTML and must get the app, while the API calls under the same prefix go to the server.
  bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
};

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist' },
  server: {
    proxy: Object.fromEntries(proxiedPaths.map((path) => [path, proxy])),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
