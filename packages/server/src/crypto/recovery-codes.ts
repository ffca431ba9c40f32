import { randomInt } from 'node:crypto';
import { sha256 } from './tokens.js';

/** Identity contract: 10 codes of the form XXXXX-XXXXX from this alphabet. */
export const RECOVERY_ALPHABET = '23456789BCDFGHJKMNPQRTVWXY';
const RECOVERY_CODE_COUNT = 10;

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) {
    if (i === 5) code += '-';
    code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  }
  return code;
}

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newRecoveryCode());
  return [...codes];
}

/** Codes are stored only as hashes; the user may type them in lower case or without the dash. */
export function hashRecoveryCode(code: string): string {
  const clean = code.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return sha256(`${clean.slice(0, 5)}-${clean.slice(5)}`);
}
