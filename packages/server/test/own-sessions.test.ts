/**
 * A user's own sessions: each sign-in still signed in, with the device and browser its user agent
 * names, its address, when it signed in and was last used, the calling one marked; one of the others
 * signed out (audited), never the calling one, never another user's.
 */
import type { SessionList } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseUserAgent } from '../src/modules/identity/user-agent.js';
import { ADMIN, codeFor, PARTNER, sessionToken, useTestServer } from './helpers.js';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('user agents', () => {
  it('name the browser, system and device as far as they say', () => {
    expect(parseUserAgent(FIREFOX_WINDOWS)).toEqual({ browser: 'Firefox 128', os: 'Windows', type: 'desktop' });
    expect(parseUserAgent(SAFARI_IPHONE)).toEqual({ browser: 'Safari 17', os: 'iOS 17.5', type: 'mobile' });
    expect(
      parseUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
      ),
    ).toEqual({ browser: 'Edge 126', os: 'Windows', type: 'desktop' });
    expect(
      parseUserAgent(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome 126', os: 'Android 14', type: 'mobile' });
    expect(
      parseUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      ),
    ).toEqual({ browser: 'Safari 17', os: 'macOS', type: 'desktop' });
    expect(
      parseUserAgent(
        'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Chrome 126', os: 'iPadOS 16', type: 'tablet' });
    expect(
      parseUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/139.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome Headless 139', os: 'Linux', type: 'desktop' });
    expect(parseUserAgent('curl/8.5.0')).toEqual({ browser: 'curl 8', os: null, type: 'unknown' });
    expect(parseUserAgent(null)).toEqual({ browser: null, os: null, type: 'unknown' });
  });
});

// In this order: the listing test counts the sessions its own sign-ins make, before the later tests add theirs.
describe('own sessions', { shuffle: false }, () => {
  const server = useTestServer();
  let key = '';
  /** A sign-in of the administrator from a browser. */
  async function signInFrom(userAgent: string): Promise<string> {
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: ADMIN, password: 'Demo-Passw0rd!' },
      headers: { 'user-agent': userAgent },
    });
    const { token } = signin.json() as { token: string };
    const verified = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token,
      body: { code: codeFor(server, key) },
      headers: { 'user-agent': userAgent },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    server.clock.advance(30_000);
    return (verified.json() as { token: string }).token;
  }
  const sessions = async (token: string) => {
    const response = await server.request({ method: 'GET', url: '/api/auth/sessions', token });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as SessionList).items;
  };

  beforeAll(async () => {
    await sessionToken(server, ADMIN);
    const [row] = await server.ctx.db.query<{ totp_secret: string }>('select totp_secret from users where email = $1', [
      ADMIN,
    ]);
    key = server.ctx.secrets.open(row?.totp_secret ?? '');
    // Only the sessions of this test's sign-ins.
    await server.ctx.db.query(
      "update sessions set revoked_at = now() where user_id = (select id from users where email = 'admin@contoso.example')",
    );
  });

  it('lists each signed-in session with device, address, sign-in and last activity, the calling one marked', async () => {
    const desktopAt = new Date(server.clock.now).toISOString();
    const desktop = await signInFrom(FIREFOX_WINDOWS);
    const phoneAt = new Date(server.clock.now).toISOString();
    const phone = await signInFrom(SAFARI_IPHONE);
    // The desktop is used again a few minutes later: its last activity moves, to the minute.
    server.clock.advance(5 * 60_000);
    const usedAt = new Date(server.clock.now).toISOString();
    const list = await sessions(desktop);
    expect(list).toEqual([
      {
        sessionId: expect.any(String),
        current: true,
        device: { browser: 'Firefox 128', os: 'Windows', type: 'desktop' },
        userAgent: FIREFOX_WINDOWS,
        ip: '127.0.0.1',
        method: 'password',
        signedInAt: desktopAt,
        lastActiveAt: usedAt,
      },
      {
        sessionId: expect.any(String),
        current: false,
        device: { browser: 'Safari 17', os: 'iOS 17.5', type: 'mobile' },
        userAgent: SAFARI_IPHONE,
        ip: '127.0.0.1',
        method: 'password',
        signedInAt: phoneAt,
        lastActiveAt: phoneAt,
      },
    ]);
    // Within the minute, a use is not written again.
    server.clock.advance(20_000);
    await sessions(desktop);
    expect((await sessions(phone)).find((s) => !s.current)?.lastActiveAt).toBe(usedAt);
  });

  it('signs out another session, which is then refused; never the calling one, never another user’s', async () => {
    const mine = await signInFrom(FIREFOX_WINDOWS);
    const other = await signInFrom(SAFARI_IPHONE);
    const list = await sessions(mine);
    const current = list.find((s) => s.current);
    const phone = list.find((s) => !s.current && s.userAgent === SAFARI_IPHONE);
    const own = await server.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${current?.sessionId}`,
      token: mine,
    });
    expect(own.statusCode).toBe(409);
    expect(own.json()).toEqual({
      message: 'This is the session you are using. Sign out from the account menu instead.',
      code: 'currentSession',
    });

    // Another user's session id is unknown to this one, and stays signed in.
    const partner = await sessionToken(server, PARTNER);
    const [theirs] = await sessions(partner);
    const foreign = await server.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${theirs?.sessionId}`,
      token: mine,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await server.request({ method: 'GET', url: '/api/auth/verify-user', token: partner })).statusCode).toBe(
      200,
    );

    const ended = await server.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${phone?.sessionId}`,
      token: mine,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/auth/verify-user', token: other })).statusCode).toBe(401);
    expect((await sessions(mine)).map((s) => s.sessionId)).not.toContain(phone?.sessionId);
    const again = await server.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${phone?.sessionId}`,
      token: mine,
    });
    expect(again.statusCode).toBe(404);
    const entries = await server.ctx.db.query<{ actor_email: string; details: Record<string, unknown> }>(
      "select actor_email, details from audit_log where action = 'auth.sessions.revoke'",
    );
    expect(entries).toEqual([
      {
        actor_email: ADMIN,
        details: {
          signedInAt: phone?.signedInAt,
          sessionIp: '127.0.0.1',
          browser: 'Safari 17',
          os: 'iOS 17.5',
        },
      },
    ]);
  });

  it('keeps the browser of a sign-in through its refreshed apollo tokens', async () => {
    const login = await server.request({
      method: 'POST',
      url: '/apollo-beta/login',
      body: { email: ADMIN, password: 'Demo-Passw0rd!', twoFactorCode: codeFor(server, key) },
      headers: { 'user-agent': FIREFOX_WINDOWS },
    });
    expect(login.statusCode, login.body).toBe(200);
    server.clock.advance(30_000);
    const { refreshToken } = login.json() as { refreshToken: string };
    const refreshed = await server.request({
      method: 'POST',
      url: '/apollo-beta/refresh',
      body: { refreshToken },
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(refreshed.statusCode).toBe(200);
    const { accessToken } = refreshed.json() as { accessToken: string };
    const current = (await sessions(accessToken)).find((s) => s.current);
    expect(current?.device).toEqual({ browser: 'Firefox 128', os: 'Windows', type: 'desktop' });
  });
});
