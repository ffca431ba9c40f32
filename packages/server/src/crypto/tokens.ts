import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (256 bits, base64url). Only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
