import type { ChildProcess } from 'node:child_process';

export const AZURITE_ACCOUNT: string;
export const AZURITE_KEY: string;
export function spawnAzurite(port: number, location: string): Promise<ChildProcess>;
