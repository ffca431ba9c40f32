import { createHmac, randomBytes } from 'node:crypto';
import { base32Encode } from './base32.js';

/** Identity contract: 30 s steps, 6 digits, the previous and next two steps accepted. */
const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;
const TOTP_WINDOW = 2;

/** A new shared key: 20 random bytes, base32, 32 characters. */
export function newSharedKey(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 4226 HOTP with HMAC-SHA1 for a counter. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', secret).update(message).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return binary.toString().padStart(digits, '0');
}

/** RFC 6238 TOTP at a time in milliseconds. */
export function totp(secret: Uint8Array, timeMs: number, digits = TOTP_DIGITS): string {
  return hotp(secret, Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS), digits);
}

/**
 * Checks a code within the window and returns its time step, or null. The caller stores the step
 * and refuses steps at or before the last one used, so a code works once.
 */
export function verifyTotp(secret: Uint8Array, code: string, timeMs: number, lastUsedStep = 0): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS);
  for (let delta = -TOTP_WINDOW; delta <= TOTP_WINDOW; delta++) {
    const step = current + delta;
    if (step <= lastUsedStep) continue;
    if (timingSafeEqualText(hotp(secret, step), code)) return step;
  }
  return null;
}

function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Identity contract: otpauth://totp/{issuer}:{email}?secret={key}&issuer={issuer}&digits=6 */
export function otpauthUri(issuer: string, email: string, key: string): string {
  const i = encodeURIComponent(issuer);
  return `otpauth://totp/${i}:${encodeURIComponent(email)}?secret=${key}&issuer=${i}&digits=6`;
}
