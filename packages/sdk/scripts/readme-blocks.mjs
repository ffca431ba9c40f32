/**
 * The code blocks of a Markdown text and what the README test does with each, by its fence's info
 * string:
 * - a file name ending in `.mjs` or `.cjs` (```` ```js quickstart.mjs ````): a program, saved under
 *   that name in a fresh project and run with Node as written (ES module or CommonJS by the name);
 * - `fragment` (```` ```ts fragment ````): an excerpt that needs what the text around it names (a
 *   signed-in `client`, a `tenantId`); `browser`: a script of a page the portal serves;
 * - the language `sh`: shell commands.
 * Any other block is `unmarked`, which the test refuses: a block is run or says why not.
 */

/** The marks that say why a block is not run. */
export const NOT_RUN_MARKS = ['fragment', 'browser'];
/** Languages whose blocks are shell commands, not run. */
export const SHELL_LANGUAGES = ['sh'];

/** Every fenced block of `markdown`: its info string, its code and the line its fence opens on (from 1). */
export function codeBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split('\n');
  let open;
  lines.forEach((line, index) => {
    const fence = /^(`{3,})(.*)$/.exec(line);
    if (!open) {
      if (fence) open = { fence: fence[1], info: fence[2].trim(), line: index + 1, code: [] };
      return;
    }
    if (fence && fence[1].length >= open.fence.length && fence[2].trim() === '') {
      blocks.push({ info: open.info, line: open.line, code: `${open.code.join('\n')}\n` });
      open = undefined;
    } else {
      open.code.push(line);
    }
  });
  if (open) throw new Error(`README line ${open.line}: a code block is never closed`);
  return blocks;
}

/**
 * What the test does with a block: `{ kind: 'run', file, module: 'esm' | 'commonjs' }`,
 * `{ kind: 'skip', why }` or `{ kind: 'unmarked' }`.
 */
export function classify(block) {
  const [language = '', ...words] = block.info.split(/\s+/).filter(Boolean);
  const file = words.find((word) => /^[\w.-]+\.(mjs|cjs)$/.test(word));
  if (file) return { kind: 'run', file, module: file.endsWith('.cjs') ? 'commonjs' : 'esm' };
  const mark = words.find((word) => NOT_RUN_MARKS.includes(word));
  if (mark) return { kind: 'skip', why: mark };
  if (SHELL_LANGUAGES.includes(language)) return { kind: 'skip', why: 'shell' };
  return { kind: 'unmarked' };
}
