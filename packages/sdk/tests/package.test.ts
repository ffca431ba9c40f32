import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classify, codeBlocks } from '../scripts/readme-blocks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

let packedFiles: Set<string> | undefined;
/** The files `npm pack` puts in the tarball (needs the built dist); listed once per run. */
function packed(): Set<string> {
  packedFiles ??= listPacked();
  return packedFiles;
}

function listPacked(): Set<string> {
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

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('the README', () => {
  it('runs or marks every code block: a program names its file, any other block says why it is not run', () => {
    const blocks = codeBlocks(readme).map((block) => ({ line: block.line, info: block.info, use: classify(block) }));
    expect(blocks.filter((block) => block.use.kind === 'unmarked')).toEqual([]);
    const programs = blocks.filter((block) => block.use.kind === 'run');
    // The quickstart in both module systems, and import() from CommonJS, at least.
    expect(programs.map((block) => block.info)).toEqual(
      expect.arrayContaining(['js quickstart.mjs', 'js quickstart.cjs', 'js import.cjs']),
    );
  });

  it('links only to what the published package holds, and to its own headings', () => {
    // Links in prose only: code may hold brackets and parentheses that are no link.
    const prose = readme.replace(/^(`{3,}).*\n[\s\S]*?^\1\s*$/gm, '').replace(/`[^`\n]*`/g, '');
    const links = [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] ?? '')));
    const files = packed();
    const broken: string[] = [];
    let relative = 0;
    for (const link of links) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [path = '', anchor] = link.split('#');
      if (path) {
        relative += 1;
        if (!files.has(normalize(path))) broken.push(`${link}: not in the package`);
      } else if (anchor !== undefined && !anchors.has(anchor)) {
        broken.push(`${link}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
    // The examples the README links to, at least; and the anchors of its contents.
    expect(relative).toBeGreaterThanOrEqual(5);
    expect(links.filter((link) => link.startsWith('#')).length).toBeGreaterThan(20);
  }, 60_000);
});
