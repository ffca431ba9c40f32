/**
 * `pnpm start` (scripts/start.mjs at the workspace root) builds only what is out of date: a package
 * whose build is missing, older than its sources, than the lockfile, or than a dependency's build.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outOfDate, PACKAGES, type WorkspacePackage } from '../../../scripts/start.mjs';
import { boundedRun } from './bounded-run';

const root = resolve(import.meta.dirname, '..', '..', '..');

const fixturePackages: WorkspacePackage[] = [
  { name: 'lib', dir: 'packages/lib', output: 'dist/index.js', inputs: ['src', 'package.json'], dependsOn: [] },
  { name: 'app', dir: 'packages/app', output: 'dist/index.html', inputs: ['src'], dependsOn: ['lib'] },
];

let workspace: string;
const T0 = new Date('2026-01-01T00:00:00Z').getTime() / 1000;

/** Writes `path` in the fixture with its modification time `minutes` after T0. */
function file(path: string, minutes: number) {
  const full = join(workspace, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, path);
  utimesSync(full, T0 + minutes * 60, T0 + minutes * 60);
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'start-'));
  file('pnpm-lock.yaml', 0);
  file('packages/lib/package.json', 0);
  file('packages/lib/src/deep/index.ts', 1);
  file('packages/lib/dist/index.js', 2);
  file('packages/app/src/main.tsx', 1);
  file('packages/app/dist/index.html', 3);
  // Folders get the times of their files, as after a checkout.
  for (const dir of ['packages/lib/src/deep', 'packages/lib/src', 'packages/app/src'])
    utimesSync(join(workspace, dir), T0 + 60, T0 + 60);
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const check = () => outOfDate(workspace, fixturePackages, ['pnpm-lock.yaml', 'tsconfig.base.json']);

describe('pnpm start builds only what is out of date', () => {
  it('builds nothing when every build is newer than what it reads', () => {
    expect(check()).toEqual([]);
  });

  it('rebuilds a package whose source (however deep) changed, and the packages built from it', () => {
    file('packages/lib/src/deep/index.ts', 5);
    expect(check()).toEqual([
      { name: 'lib', reason: 'packages/lib/src changed since the last build' },
      { name: 'app', reason: 'lib was built since' },
    ]);
  });

  it('rebuilds only the package that changed when nothing depends on it', () => {
    file('packages/app/src/main.tsx', 5);
    expect(check()).toEqual([{ name: 'app', reason: 'packages/app/src changed since the last build' }]);
  });

  it('builds a package whose build is missing', () => {
    rmSync(join(workspace, 'packages/app/dist'), { recursive: true });
    expect(check()).toEqual([{ name: 'app', reason: 'packages/app/dist/index.html is missing' }]);
  });

  it('rebuilds a package when a dependency was built after it', () => {
    file('packages/lib/dist/index.js', 4);
    expect(check()).toEqual([{ name: 'app', reason: 'lib was built since' }]);
  });

  it('rebuilds everything after the installed dependencies changed', () => {
    file('pnpm-lock.yaml', 10);
    expect(check().map((s) => s.name)).toEqual(['lib', 'app']);
    expect(check()[0]?.reason).toBe('the installed dependencies or shared settings changed');
  });

  it('knows every package of the workspace, in an order where dependencies come first', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const names = readdirSync(join(root, 'packages')).map(
      (dir) => (JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as { name: string }).name,
    );
    expect(PACKAGES.map((p) => p.name).sort()).toEqual(names.sort());
    for (const [index, pkg] of PACKAGES.entries()) {
      const manifest = JSON.parse(readFileSync(join(root, pkg.dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const workspaceDeps = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })
        .filter(([, version]) => version.startsWith('workspace:'))
        .map(([name]) => name);
      expect(pkg.dependsOn.sort()).toEqual(workspaceDeps.sort());
      for (const dep of pkg.dependsOn) expect(PACKAGES.findIndex((p) => p.name === dep)).toBeLessThan(index);
    }
  });

  it('says what it would build with --dry-run, and starts nothing', async () => {
    const run = await boundedRun([resolve(root, 'scripts/start.mjs'), '--dry-run'], { cwd: root, limitMs: 15_000 });
    expect(run.timedOut, run.output).toBe(false);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(
      /^(Every build is current \(checked in \d+ ms\)\.|(Building @compliance-portal\/[\w-]+: .+\.\n?)+)$/m,
    );
    expect(run.leftovers).toEqual([]);
  });
});
