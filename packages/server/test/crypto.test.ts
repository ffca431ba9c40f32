import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode } from '../src/crypto/base32.js';
import { passwordProblems } from '../src/crypto/passwords.js';
import { hashRecoveryCode, newRecoveryCodes, RECOVERY_ALPHABET } from '../src/crypto/recovery-codes.js';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { hotp, newSharedKey, otpauthUri, totp, verifyTotp } from '../src/crypto/totp.js';

const rfcSeed = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP (RFC 6238, SHA1)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ])('t=%i gives %s', (seconds, code) => {
    expect(totp(rfcSeed, seconds * 1000, 8)).toBe(code);
    expect(totp(rfcSeed, seconds * 1000)).toBe(code.slice(2));
  });

  it('matches the RFC 4226 HOTP vectors', () => {
    expect(hotp(rfcSeed, 0)).toBe('755224');
    expect(hotp(rfcSeed, 9)).toBe('520489');
  });

  it('accepts the previous and next two steps, no further, and each step once', () => {
    const t = 1_700_000_000_000;
    for (const delta of [-2, -1, 0, 1, 2])
      expect(verifyTotp(rfcSeed, totp(rfcSeed, t + delta * 30_000), t)).not.toBeNull();
    expect(verifyTotp(rfcSeed, totp(rfcSeed, t + 3 * 30_000), t)).toBeNull();
    expect(verifyTotp(rfcSeed, totp(rfcSeed, t - 3 * 30_000), t)).toBeNull();
    const step = verifyTotp(rfcSeed, totp(rfcSeed, t), t);
    expect(step).toBe(Math.floor(t / 30_000));
    expect(verifyTotp(rfcSeed, totp(rfcSeed, t), t, step ?? 0)).toBeNull();
    expect(verifyTotp(rfcSeed, 'abcdef', t)).toBeNull();
  });

  it('makes 32-character base32 keys of 20 bytes and the otpauth URI', () => {
    const key = newSharedKey();
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(key)).toHaveLength(20);
    expect(base32Encode(base32Decode(key))).toBe(key);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(otpauthUri('Compliance Portal', 'a+b@x.example', key)).toBe(
      `otpauth://totp/Compliance%20Portal:a%2Bb%40x.example?secret=${key}&issuer=Compliance%20Portal&digits=6`,
    );
  });
});

describe('recovery codes', () => {
  it('are 10 distinct XXXXX-XXXXX codes from the contract alphabet', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const pattern = new RegExp(`^[${RECOVERY_ALPHABET}]{5}-[${RECOVERY_ALPHABET}]{5}$`);
    for (const code of codes) expect(code).toMatch(pattern);
  });

  it('hash the same whatever the case or dash', () => {
    expect(hashRecoveryCode('bcdfg-hjkmn')).toBe(hashRecoveryCode('BCDFGHJKMN'));
    expect(hashRecoveryCode('BCDFG-HJKMN')).not.toBe(hashRecoveryCode('BCDFG-HJKMP'));
  });
});

describe('password rules', () => {
  it('give the contract codes in order', () => {
    expect(passwordProblems('abc')).toEqual([
      'PasswordTooShort',
      'PasswordRequiresNonAlphanumeric',
      'PasswordRequiresDigit',
      'PasswordRequiresUpper',
    ]);
    expect(passwordProblems('ABCDEFGH1!')).toEqual(['PasswordRequiresLower']);
    expect(passwordProblems('Demo-Passw0rd!')).toEqual([]);
  });
});

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox(Buffer.alloc(32, 1));
  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('client-secret');
    expect(box.open(a)).toBe('client-secret');
    expect(box.seal('client-secret')).not.toBe(a);
    expect(a).not.toContain('client-secret');
  });
  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('client-secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed)).toThrow();
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(RangeError);
  });
});
