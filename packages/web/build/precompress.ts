import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|webmanifest)$/;

/**
 * Writes a Brotli and a gzip copy beside every text file of the build once it is on disk (after every
 * other plugin changed it), so the server sends them without compressing at request time
 * (@fastify/static `preCompressed`).
 */
export function precompress(minBytes = 1024): Plugin {
  return {
    name: 'portal:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const path = join(dir, fileName);
        const bytes = readFileSync(path);
        if (bytes.length < minBytes) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}
