// Prints the SDK's bundled size, minified and gzipped: the whole import, and single resources alone
// (what tree-shaking leaves). Needs `pnpm build` first.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const entry = new URL('../dist/index.js', import.meta.url).pathname;
const cases = {
  'whole import (createClient + everything)': `export * from '${entry}';`,
  'createClient only': `import { createClient } from '${entry}'; console.log(createClient);`,
  'one resource alone (createTransport + tenantsApi)': `import { createTransport, tenantsApi } from '${entry}'; console.log(tenantsApi(createTransport({ origin: '' })));`,
  'one resource alone (createTransport + legacyAuthApi)': `import { createTransport, legacyAuthApi } from '${entry}'; console.log(legacyAuthApi(createTransport({ origin: '' })));`,
  'errorMessage alone': `import { errorMessage } from '${entry}'; console.log(errorMessage);`,
};

const rows = [];
for (const [name, contents] of Object.entries(cases)) {
  const result = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    treeShaking: true,
  });
  const code = result.outputFiles[0].contents;
  rows.push({ bundle: name, minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length });
}
console.table(rows);
