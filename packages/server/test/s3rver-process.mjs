// s3rver, an S3-compatible server (the @20minutes fork of jamhall/s3rver, kept for Node 20), as a
// child process for the tests (test/s3rver.ts) and the object-store bench alike: on 127.0.0.1:`port`,
// its objects in `location`, signatures checked against its one account.
import { fileURLToPath } from 'node:url';
import { spawnReady } from './spawn-ready.mjs';

/** s3rver's account (fixed in s3rver: requests signed with any other key are refused). */
export const S3RVER_KEY_ID = 'S3RVER';
export const S3RVER_SECRET = 'S3RVER';

/**
 * Starts s3rver with `buckets` made; resolves with its process once it listens (rejects if it ends first or takes 20 s).
 * It is killed when this process ends.
 */
export function spawnS3rver(port, location, buckets = []) {
  return spawnReady('s3rver', [fileURLToPath(import.meta.url), String(port), location, ...buckets], /s3rver listening/);
}

// Run as a script: the server itself.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: S3rver } = await import('@20minutes/s3rver');
  const [port, location, ...buckets] = process.argv.slice(2);
  const server = new S3rver({
    address: '127.0.0.1',
    port: Number(port),
    directory: location,
    silent: true,
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  // s3rver checks a bucket's own requests (a listing: GET /<bucket>/?list-type=2) against the path
  // without its last slash, where the AWS SDK v3 signs the path as sent, and refuses every listing.
  // Before its router (the last of its Koa middleware), such a request is marked so that s3rver
  // rebuilds the path as sent ("/" + bucket + mount path "/"); nothing else reads these two fields.
  server.middleware.splice(server.middleware.length - 1, 0, (ctx, next) => {
    if (/^\/[^/]+\/$/.test(ctx.path)) {
      ctx.state.vhost = true;
      ctx.mountPath = '/';
    }
    return next();
  });
  await server.run();
  process.stdout.write('s3rver listening\n');
}
