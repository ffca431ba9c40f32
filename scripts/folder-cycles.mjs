#!/usr/bin/env node
/**
 * Import cycles between the folders of a source tree (by default packages/server/src), so that the
 * order of the server's modules written in CONTRIBUTING.md is kept by a check rather than by memory.
 *
 * A node is a module (`modules/<name>`), any other top-level folder (`http`, `jobs`, `db` …), or a
 * top-level file (`app`, `context` …). An edge is a relative import or export-from, type-only ones
 * included: a type import ties two folders as much as a value import does when either is changed.
 * Every strongly connected component of more than one node is a cycle; each is printed with its
 * edges and the files that make them.
 *
 * `node scripts/folder-cycles.mjs [dir]` prints nothing but a last line of counts when there is no
 * cycle and exits 0; with cycles it exits 1. scripts/structure.mjs uses `folderCycles` as one of its rules.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The TypeScript files under `dir`, at any depth. */
function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The specifiers a file imports. Statements are matched from the start of a line, so that an example
 * in a comment (` * import …`) is not one; between the keyword and `from` only names, braces, commas
 * and `*` may stand, so that no match runs on into the code after an `export const`.
 */
function specifiers(text) {
  const patterns = [
    /^\s*(?:import|export)\b[\w$\s{},*]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]));
}

/** The file a relative specifier names: sources import `x.js` for `x.ts`, or a folder for its index. */
function resolveSpecifier(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.(m?)js$/, '.$1ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

/** The node a file of the tree `src` belongs to; undefined for a file outside it. */
function nodeOf(src, file) {
  const parts = relative(src, file).split(sep);
  if (parts[0] === '..') return undefined;
  if (parts.length === 1) return parts[0].replace(/\.(ts|tsx|mts)$/, '');
  if (parts[0] === 'modules') return `modules/${parts[1].replace(/\.(ts|tsx|mts)$/, '')}`;
  return parts[0];
}

/** from node → to node → the imports making that edge, as `file -> file`. */
function importEdges(src) {
  const edges = new Map();
  for (const file of sourceFiles(src)) {
    const from = nodeOf(src, file);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, specifier);
      const to = nodeOf(src, target);
      if (to === undefined || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const byTarget = edges.get(from);
      if (!byTarget.has(to)) byTarget.set(to, new Set());
      byTarget.get(to).add(`${relative(src, file)} -> ${relative(src, target)}`);
    }
  }
  return edges;
}

/** Tarjan's strongly connected components; only those of two nodes or more are cycles. */
function cycles(edges) {
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const n of [...nodes].sort()) if (!index.has(n)) visit(n);
  return found;
}

/**
 * The folder cycles of the tree `src`: each as its nodes and its edges (`from -> to`, with the imports
 * that make each edge).
 */
export function folderCycles(src) {
  const edges = importEdges(src);
  return cycles(edges).map((component) => ({
    nodes: component,
    edges: component.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter(([to]) => component.includes(to))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([to, files]) => ({ from, to, imports: [...files].sort() })),
    ),
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const src = resolve(process.argv[2] ?? join(root, 'packages/server/src'));
  const found = folderCycles(src);
  let folderEdges = 0;
  let imports = 0;
  for (const { nodes, edges } of found) {
    console.log(`cycle: ${nodes.join(', ')}`);
    for (const edge of edges) {
      folderEdges++;
      imports += edge.imports.length;
      console.log(`  ${edge.from} -> ${edge.to}`);
      for (const f of edge.imports) console.log(`      ${f}`);
    }
  }
  console.log(
    `${found.length} folder cycle(s) in ${relative(root, src) || '.'}: ${folderEdges} folder edge(s), ${imports} import(s) in them`,
  );
  process.exitCode = found.length > 0 ? 1 : 0;
}
