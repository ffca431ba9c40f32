/**
 * The simulator's data directory: its TLS certificates, its token signing key and its control key,
 * made at first start and kept, so that a restarted simulator is trusted and its tokens verify as
 * before. Several simulators (test processes) may share one directory and start at the same moment:
 * every file is created whole or not at all, and the first one written wins.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

/** The environment variable naming the data directory when no `dataDir` option is given. */
export const DATA_DIR_ENV = 'M365_SIMULATOR_DATA_DIR';

/** The `dataDir` option, else M365_SIMULATOR_DATA_DIR, else a new temporary directory. */
export function resolveDataDir(dataDir?: string, env: Record<string, string | undefined> = process.env): string {
  const chosen = dataDir ?? env[DATA_DIR_ENV];
  const dir = chosen ? resolve(chosen) : mkdtempSync(resolve(tmpdir(), 'm365-simulator-'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function isCode(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && codes.includes((error as { code?: string }).code ?? '');
}

/**
 * The file's text; if it does not exist yet, `create` makes it and it is written with `mode`. A hard
 * link from a finished temporary file makes the creation atomic: a concurrent creator's link fails
 * and it reads the winner's file instead.
 */
export async function readOrCreate(path: string, create: () => string | Promise<string>, mode = 0o644) {
  if (existsSync(path)) return readFileSync(path, 'utf8');
  const text = await create();
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { mode });
  try {
    linkSync(temporary, path);
    return text;
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    return readFileSync(path, 'utf8');
  } finally {
    unlinkSync(temporary);
  }
}
