/** Request bodies keep only the members their schema names (ASP.NET's model binding drops the rest). */
import { endpointById, type JsonSchema } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { documentedOnly } from '../src/http/contract.js';

describe('documentedOnly', () => {
  const jobUpdate = endpointById('apollo.jobs.update').body as JsonSchema;
  const codeVerification = endpointById('legacy.auth.codeVerification').body as JsonSchema;

  it('drops undocumented members at every depth, choosing a union branch by its kind', () => {
    const body = {
      name: 'Versions',
      extra: 1,
      cleanupRule: { kind: 'olderThan', date: '2026-01-01T00:00:00.000Z', count: 3, note: 'x' },
    };
    expect(documentedOnly(jobUpdate, body)).toEqual({
      name: 'Versions',
      cleanupRule: { kind: 'olderThan', date: '2026-01-01T00:00:00.000Z' },
    });
    expect(documentedOnly(jobUpdate, { cleanupRule: { kind: 'keepNewest', count: 3, date: 'x' } })).toEqual({
      cleanupRule: { kind: 'keepNewest', count: 3 },
    });
  });

  it('keeps the branch whose required members are there', () => {
    expect(documentedOnly(codeVerification, { recoveryCode: 'ABCDE-FGHJK', other: true })).toEqual({
      recoveryCode: 'ABCDE-FGHJK',
    });
    expect(documentedOnly(codeVerification, { code: '123456' })).toEqual({ code: '123456' });
  });

  it('leaves values that are not objects, and open records, as they are', () => {
    expect(documentedOnly({ type: 'string' }, 'a')).toBe('a');
    const record: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
    expect(documentedOnly(record, { a: 'b' })).toEqual({ a: 'b' });
  });
});
