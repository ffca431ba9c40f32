// Writes openapi.json from the built catalogue: run after `pnpm build` when the contract changes.
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../dist/openapi.js';

const file = new URL('../openapi.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
