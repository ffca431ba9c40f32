import type { ChildProcess } from 'node:child_process';

export const S3RVER_KEY_ID: string;
export const S3RVER_SECRET: string;
export function spawnS3rver(port: number, location: string, buckets?: readonly string[]): Promise<ChildProcess>;
