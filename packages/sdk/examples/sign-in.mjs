// @ts-check
/**
 * Signs in through apollo /login with the password and the authenticator's current code, reads the
 * account, refreshes the tokens and logs out.
 *
 * Environment:
 *   PORTAL_URL          the portal's origin, such as https://portal.example.com
 *   PORTAL_API_KEY      the application key, sent as X-Api-Key (the server's PORTAL_API_KEY)
 *   PORTAL_EMAIL        the account's email
 *   PORTAL_PASSWORD     its password
 *   PORTAL_TOTP_SECRET  the authenticator key enrolled at the portal's QR setup (the key shown as text)
 *
 * Run: node examples/sign-in.mjs
 */
import { createHmac } from 'node:crypto';
import { AuthenticationError, createClient } from '@compliance-portal/sdk';

const env = (/** @type {string} */ name) => process.env[name] || fail(`Set ${name}.`);
/** @returns {never} */
function fail(/** @type {string} */ message) {
  console.error(message);
  process.exit(2);
}

/** The code an authenticator app shows now (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits). */
function totp(/** @type {string} */ base32Key, now = Date.now()) {
  const bits = [...base32Key.replace(/[\s=]/g, '').toUpperCase()]
    .map((char) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(char).toString(2).padStart(5, '0'))
    .join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const client = createClient({ origin: env('PORTAL_URL'), apiKey: env('PORTAL_API_KEY') });

// A code is accepted once: two sign-ins in the same 30 seconds need two steps (wait for the next one).
const tokens = await client.apollo.auth.login({
  body: {
    email: env('PORTAL_EMAIL'),
    password: env('PORTAL_PASSWORD'),
    twoFactorCode: totp(env('PORTAL_TOTP_SECRET')),
  },
});
client.setToken(tokens.accessToken);
const info = await client.apollo.auth.info();
const { user } = await client.legacy.auth.verifyUser();
console.log(`Signed in as ${info.email} (${user.role}); the access token lasts ${tokens.expiresIn} s.`);

// Before the hour is up: a refresh token is used once and answers a new pair.
const refreshed = await client.apollo.auth.refresh({ body: { refreshToken: tokens.refreshToken } });
client.setToken(refreshed.accessToken);
console.log(`Refreshed; still ${(await client.apollo.auth.info()).email}.`);

// Logout ends every token this sign-in led to, refresh tokens too.
await client.legacy.auth.logout({ body: {} });
const after = await client.apollo.auth.info().catch((/** @type {unknown} */ error) => error);
console.log(`Logged out: the token is ${after instanceof AuthenticationError ? 'refused (401)' : 'still accepted!'}.`);
if (!(after instanceof AuthenticationError)) process.exitCode = 1;
