import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react(), precompress()],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/apollo': 'http://127.0.0.1:8080',
      '/apollo-beta': 'http://127.0.0.1:8080',
      '/app-config.json': 'http://127.0.0.1:8080',
    },
  },
  build: { target: 'es2022', sourcemap: true },
});
