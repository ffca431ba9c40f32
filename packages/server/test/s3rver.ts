/**
 * s3rver, an S3-compatible server (see s3rver-process.mjs), started for a test on a free port of
 * 127.0.0.1 with its objects in a new directory; `stop` ends it, as does the end of the test process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { type S3Location, s3Client } from '../src/storage/s3-blob-store.js';
import { freePort } from './process.js';
import { S3RVER_KEY_ID, S3RVER_SECRET, spawnS3rver } from './s3rver-process.mjs';

export interface S3rver {
  port: number;
  /** The server's address, http://127.0.0.1:<port> (through `port`, when given). */
  endpoint(port?: number): string;
  /** Where a bucket is, signed with the server's account. */
  location(bucket: string, port?: number): S3Location;
  /** A client of the server for the bucket `name` (one of those it was started with). */
  bucket(name: string): S3Client;
  stop(): Promise<void>;
}

/** s3rver with `buckets` made (it signs a request to make one differently from the AWS SDK v3). */
export async function startS3rver(buckets: readonly string[]): Promise<S3rver> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3rver-'));
  const child = await spawnS3rver(port, directory, buckets);
  const endpoint = (through = port) => `http://127.0.0.1:${through}`;
  const location = (bucket: string, through = port): S3Location => ({
    bucket,
    endpoint: endpoint(through),
    accessKeyId: S3RVER_KEY_ID,
    secretAccessKey: S3RVER_SECRET,
  });
  return {
    port,
    endpoint,
    location,
    bucket: (name) => s3Client(location(name)),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await ended;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
