/** Types of scripts/readme-blocks.mjs, for the package's tests. */
export interface CodeBlock {
  /** The fence's info string, such as `js quickstart.mjs` or `ts fragment`. */
  info: string;
  /** The line the fence opens on, from 1. */
  line: number;
  code: string;
}
export type BlockUse =
  | { kind: 'run'; file: string; module: 'esm' | 'commonjs' }
  | { kind: 'skip'; why: string }
  | { kind: 'unmarked' };
export declare const NOT_RUN_MARKS: string[];
export declare const SHELL_LANGUAGES: string[];
export declare function codeBlocks(markdown: string): CodeBlock[];
export declare function classify(block: CodeBlock): BlockUse;
