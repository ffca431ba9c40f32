import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../src/index.js';
import { buildOpenApi } from '../src/openapi.js';

const checkedIn = JSON.parse(readFileSync(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8'));

describe('OpenAPI document', () => {
  const document = buildOpenApi();

  it('is checked in and current (run `pnpm --filter @compliance-portal/sdk openapi` after a contract change)', () => {
    expect(checkedIn).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has one operation per catalogue endpoint, named by its id', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => key !== 'servers')
        .map(([, op]) => (op as { operationId: string }).operationId),
    );
    expect(ids.sort()).toEqual(endpoints.map((e) => e.id).sort());
  });

  it('documents the apollo base paths and the legacy one', () => {
    expect(document.paths['/api/Tenants']?.servers).toEqual([
      { url: '/apollo-beta', description: 'apollo, production' },
      { url: '/apollo', description: 'apollo, staging' },
    ]);
    expect(document.paths['/auth/signin']?.servers).toEqual([{ url: '/api', description: 'legacy' }]);
  });

  it('an invalid document fails the validator', async () => {
    const broken = JSON.parse(JSON.stringify(document));
    broken.paths['/api/Tenants'].get.responses = 'nope';
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });
});
