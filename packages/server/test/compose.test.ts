/**
 * compose.yaml runs the portal as README's "Several machines" says: PostgreSQL, an object store, two
 * API processes and two workers, each portal process with the same shared variables, and every
 * variable it sets one the configuration table documents.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = new URL('../../../', import.meta.url);
const compose = parse(readFileSync(new URL('compose.yaml', root), 'utf8'), { merge: true }) as {
  services: Record<string, { command?: string[]; environment?: Record<string, string>; image?: string }>;
};
const readme = readFileSync(new URL('README.md', root), 'utf8');
const section = /### Several machines\n([\s\S]*?)\n## |### Several machines\n([\s\S]*?)\n`pnpm --filter/.exec(readme);
const severalMachines = section?.[1] ?? section?.[2] ?? '';
/** The variables of README's configuration table. */
const documented = new Set(
  [...readme.matchAll(/^\| ((?:`[A-Z_]+`(?:,? | \(or `--role=`\))?)+)/gm)].flatMap((m) =>
    [...(m[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((v) => v[1] ?? ''),
  ),
);
const SHARED = ['DATABASE_URL', 'PORTAL_SECRET_KEY', 'PORTAL_API_KEY', 'PORTAL_BLOB_STORE', 'PORTAL_BLOB_STORE_KEY'];

describe('compose.yaml', () => {
  const portal = Object.entries(compose.services).filter(([, s]) =>
    s.command?.includes('packages/server/dist/server.js'),
  );

  it('runs PostgreSQL, Azurite, two API processes and two workers', () => {
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.azurite?.command).toContain('--disableTelemetry');
    const roles = portal.map(([, s]) => s.command?.find((a) => a.startsWith('--role=')));
    expect(roles.sort()).toEqual(['--role=web', '--role=web', '--role=worker', '--role=worker']);
  });

  it('gives every portal process the same shared variables, each documented in README', () => {
    expect(severalMachines).not.toBe('');
    for (const name of SHARED) {
      expect(severalMachines, name).toContain(`\`${name}\``);
      const values = new Set(portal.map(([, s]) => s.environment?.[name]));
      expect(values.size, name).toBe(1);
      expect([...values][0], name).toBeTruthy();
    }
    for (const [service, s] of portal) {
      for (const name of Object.keys(s.environment ?? {}))
        expect(documented.has(name), `${service}: ${name}`).toBe(true);
    }
    // The API processes listen beyond their container; workers have no HTTP side.
    for (const [, s] of portal.filter(([, s]) => s.command?.includes('--role=web'))) {
      expect(s.environment?.HOST).toBe('0.0.0.0');
    }
    // The blob store reaches the compose project's Azurite, and the database its PostgreSQL.
    const env = portal[0]?.[1].environment ?? {};
    expect(new URL(env.PORTAL_BLOB_STORE ?? '').hostname).toBe('azurite');
    expect(new URL(env.DATABASE_URL ?? '').hostname).toBe('postgres');
  });
});
