import type { JsonSchema } from '../../src/core/schema.js';

const patternSamples: Record<string, string> = {
  '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$': '3f2a6b1c-1d2e-4f50-8a9b-0c1d2e3f4a5b',
  '^[0-9]{6}$': '287082',
  '^[2-9A-Za-z]{5}-[2-9A-Za-z]{5}$': 'BCDFG-HJKMN',
  '^[2-9BCDFGHJKMNPQRTVWXY]{5}-[2-9BCDFGHJKMNPQRTVWXY]{5}$': 'BCDFG-HJKMN',
  '^[a-z0-9-]+$': 'contoso',
  '^[0-9]{1,18}$': '4711',
  '^([0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|([A-Za-z0-9-]+\\.)+[A-Za-z]{2,63})$': 'contoso.onmicrosoft.com',
};

function sampleString(schema: JsonSchema, name: string): string {
  if (schema.pattern) {
    const sample = patternSamples[schema.pattern];
    if (!sample) throw new Error(`No sample for pattern ${schema.pattern}`);
    return sample;
  }
  switch (schema.format) {
    case 'email':
      return 'admin@contoso.example';
    case 'date-time':
      return '2026-11-01T08:30:00.000Z';
    case 'date':
      return '2026-11-01';
    case 'uri':
      return 'https://contoso.example/sites/archive';
    default: {
      const base = `${name || 'value'}-1`;
      const min = schema.minLength ?? 0;
      const text = base.length >= min ? base : base.padEnd(min, 'x');
      return schema.maxLength !== undefined ? text.slice(0, schema.maxLength) : text;
    }
  }
}

/** A value valid against the schema, with every optional property filled, deterministic. */
export function sample(schema: JsonSchema, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0] ?? {}, name);
  switch (schema.type) {
    case 'string':
      if (schema.contentMediaType) return new Blob(['%PDF-1.7 sample'], { type: 'application/pdf' });
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 3, 3));
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(schema.minItems ?? 1, 1);
      const items = schema.items ?? {};
      return Array.from({ length: count }, (_, i) => {
        const value = sample(items, name);
        const free = !items.enum && items.const === undefined;
        return typeof value === 'string' && schema.uniqueItems && free
          ? `${value}${i}`
          : typeof value === 'number' && schema.uniqueItems
            ? i
            : value;
      });
    }
    case 'object': {
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return { onedrive: sample(schema.additionalProperties, 'value') };
      }
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value, key)]),
      );
    }
    default:
      return {};
  }
}
