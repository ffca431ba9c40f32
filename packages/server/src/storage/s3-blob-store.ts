/**
 * The blob store on S3 and S3-compatible services (see object-blob-store.ts): each blob one object of
 * a bucket, written with If-None-Match: * where the service honours it; a blob larger than
 * MULTIPART_FROM is uploaded in parts of PART_SIZE (a part that fails is tried again alone, an upload
 * that fails is aborted so no parts are left billed).
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { BlobStore } from './blob-store.js';
import { createObjectBlobStore, type ObjectBlobStoreOptions, type ObjectBucket } from './object-blob-store.js';

/** Objects from this size are uploaded in parts. */
export const MULTIPART_FROM = 16 * 1024 * 1024;
/** A part's size (S3 asks at least 5 MiB of every part but the last). */
const PART_SIZE = 8 * 1024 * 1024;
/** Parts uploaded at once. */
const PARTS_IN_FLIGHT = 4;

export interface S3Location {
  bucket: string;
  /** The service's address for S3-compatible services (MinIO, Ceph, s3rver); AWS's by region otherwise. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** The HTTP status of a failed call, if it has one. */
export const s3StatusOf = (error: unknown): number | undefined => {
  if (typeof error !== 'object' || error === null || !('$metadata' in error)) return undefined;
  const metadata = error.$metadata as { httpStatusCode?: number } | undefined;
  return metadata?.httpStatusCode;
};

/**
 * A client for `location`: path-style addresses on a named endpoint (what S3-compatible services
 * serve), checksums only where S3 requires them (the newer defaults send trailers some compatible
 * services do not read), three tries, a connection given 5 s and a call a minute.
 */
export function s3Client(location: S3Location): S3Client {
  return new S3Client({
    region: location.region ?? 'us-east-1',
    ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
    ...(location.accessKeyId && location.secretAccessKey
      ? { credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

export function s3Bucket(client: S3Client, bucket: string): ObjectBucket {
  /** One object in one request (`IfNoneMatch: '*'`: only if none of its name is there). */
  const put = (name: string, body: Buffer, conditions: { IfNoneMatch?: string } = {}) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: name,
        Body: body,
        ContentLength: body.length,
        ContentType: 'application/octet-stream',
        ...conditions,
      }),
    );
  /** Uploads `size` bytes in parts, `partOf(i)` giving the i-th (PART_SIZE each, the last the rest). */
  const multipart = async (name: string, size: number, partOf: (index: number) => Promise<Buffer>) => {
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: name, ContentType: 'application/octet-stream' }),
    );
    if (!UploadId) throw new Error('The S3 service started no multipart upload.');
    try {
      const count = Math.ceil(size / PART_SIZE);
      const parts: { ETag: string; PartNumber: number }[] = new Array(count);
      let next = 0;
      const uploadParts = async () => {
        while (next < count) {
          const index = next++;
          const { ETag } = await client.send(
            new UploadPartCommand({
              Bucket: bucket,
              Key: name,
              UploadId,
              PartNumber: index + 1,
              Body: await partOf(index),
            }),
          );
          parts[index] = { ETag: ETag ?? '', PartNumber: index + 1 };
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, count) }, uploadParts));
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key: name, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: name, UploadId }))
        .catch(() => undefined);
      throw error;
    }
  };
  return {
    async size(name) {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: name }))).ContentLength ?? 0;
      } catch (error) {
        if (s3StatusOf(error) === 404) return undefined;
        throw error;
      }
    },
    async write(name, body) {
      if (body.length >= MULTIPART_FROM) {
        await multipart(name, body.length, async (i) => body.subarray(i * PART_SIZE, (i + 1) * PART_SIZE));
        return true;
      }
      try {
        await put(name, body, { IfNoneMatch: '*' });
        return true;
      } catch (error) {
        const status = s3StatusOf(error);
        if (status === 409 || status === 412) return false;
        throw error;
      }
    },
    async read(name) {
      const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: name }));
      if (!Body) throw new Error(`The S3 service sent no body for ${name}.`);
      return Buffer.from(await Body.transformToByteArray());
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name }));
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
        );
        for (const object of page.Contents ?? []) yield { name: object.Key ?? '', size: object.Size ?? 0 };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async upload(name, path) {
      const file = await open(path, 'r');
      try {
        const { size } = await file.stat();
        const read = async (index: number) => {
          const length = Math.min(PART_SIZE, size - index * PART_SIZE);
          const buffer = Buffer.alloc(length);
          await file.read(buffer, 0, length, index * PART_SIZE);
          return buffer;
        };
        if (size >= MULTIPART_FROM) return await multipart(name, size, read);
        await put(name, await file.readFile());
      } finally {
        await file.close();
      }
    },
    async download(name) {
      try {
        const { Body, ContentLength } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: name }));
        if (!(Body instanceof Readable)) throw new Error(`The S3 service sent no body for ${name}.`);
        return { size: ContentLength ?? 0, stream: Body };
      } catch (error) {
        if (s3StatusOf(error) === 404) return undefined;
        throw error;
      }
    },
  };
}

export function createS3BlobStore(client: S3Client, bucket: string, options: ObjectBlobStoreOptions = {}): BlobStore {
  return createObjectBlobStore(s3Bucket(client, bucket), options);
}
