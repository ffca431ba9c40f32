import type { ChildProcess } from 'node:child_process';

export function spawnReady(name: string, args: readonly string[], ready: RegExp): Promise<ChildProcess>;
