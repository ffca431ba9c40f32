import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The files `npm pack` puts in the tarball (needs the built dist). */
function packed(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [info] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set((info?.files ?? []).map((f) => f.path));
}

describe('the published package', () => {
  it('ships every file its source maps and declaration maps point at, and its README', () => {
    const files = packed();
    expect(files.has('README.md')).toBe(true);
    const maps = [...files].filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources, sourceRoot } = JSON.parse(readFileSync(join(root, map), 'utf8')) as {
        sources: string[];
        sourceRoot?: string;
      };
      for (const source of sources) {
        const target = normalize(join(dirname(map), sourceRoot ?? '', source));
        if (!files.has(target)) missing.push(`${map} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
    // `npm pack` is a process of its own that walks the package: 5 to 6 s on an idle 2-core machine.
  }, 60_000);
});
