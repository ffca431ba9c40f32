/**
 * What sign-in, registration, user creation and partner-client creation tell about accounts and
 * organisations that are not the caller's: the lockout answers an unknown address as it answers an
 * account, registration does the same work for a taken and a free address, and a taken address or
 * short name is refused alike whoever has it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import * as passwords from '../src/crypto/passwords.js';
import { drainBackground } from '../src/modules/identity/background.js';
import { addressKey } from '../src/modules/identity/password.js';
import { ADMIN, API_KEY, organisationId, PARTNER, sessionToken, TEST_SECRET_KEY, useTestServer } from './helpers.js';

// Counts the password hashes the server makes, to compare the work of two requests.
vi.mock('../src/crypto/passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/crypto/passwords.js')>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});
const hashes = () => vi.mocked(passwords.hashPassword).mock.calls.length;

const WRONG = 'Wrong-Passw0rd!';
const FIVE_MINUTES = 5 * 60_000;

describe('answers that do not tell accounts apart', () => {
  const server = useTestServer();
  const real = { apollo: 'real.apollo@contoso.example', legacy: 'real.legacy@contoso.example' };

  beforeAll(async () => {
    for (const email of Object.values(real)) {
      await server.ctx.db.query(
        `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
         select gen_random_uuid()::text, $1, 'Real', password_hash, 'admin', organisation_id, true from users where email = $2`,
        [email, ADMIN],
      );
    }
  });

  const apolloLogin = (email: string, app: FastifyInstance = server.app) =>
    app
      .inject({
        method: 'POST',
        url: '/apollo-beta/login',
        headers: { 'x-api-key': API_KEY },
        payload: { email, password: WRONG },
      })
      .then((r) => `${r.statusCode} ${(r.json() as { detail?: string }).detail}`);
  const legacySignin = (email: string) =>
    server
      .request({ method: 'POST', url: '/api/auth/signin', body: { email, password: WRONG } })
      .then((r) => `${r.statusCode} ${(r.json() as { code?: string }).code}`);

  describe('lockout', () => {
    it('apollo /login: five wrong tries lock an unknown address as they lock an account, for five minutes', async () => {
      const unknown = 'nobody.apollo@contoso.example';
      const sequence = async (email: string) => {
        const answers: string[] = [];
        for (let i = 0; i < 6; i++) answers.push(await apolloLogin(email));
        server.clock.advance(FIVE_MINUTES + 1000);
        answers.push(await apolloLogin(email));
        return answers;
      };
      const forAccount = await sequence(real.apollo);
      const forUnknown = await sequence(unknown);
      expect(forAccount).toEqual([
        ...Array(4).fill('401 Failed'),
        // The fifth failure already answers locked out, and so does every try until the lock ends.
        '401 Lockedout',
        '401 Lockedout',
        '401 Failed',
      ]);
      expect(forUnknown).toEqual(forAccount);
    });

    it('legacy /auth/signin: the same lockout message for an unknown address as for an account', async () => {
      const unknown = 'nobody.legacy@contoso.example';
      const sequence = async (email: string) => {
        const answers: string[] = [];
        for (let i = 0; i < 6; i++) answers.push(await legacySignin(email));
        server.clock.advance(FIVE_MINUTES + 1000);
        answers.push(await legacySignin(email));
        return answers;
      };
      const forAccount = await sequence(real.legacy);
      expect(forAccount).toEqual([
        ...Array(4).fill('401 invalidCredentials'),
        '401 accountLocked',
        '401 accountLocked',
        '401 invalidCredentials',
      ]);
      expect(await sequence(unknown)).toEqual(forAccount);
    });

    it('counts the tries of an unknown address in the database, so two API processes lock it together', async () => {
      const second = await buildApp({ ...server.ctx });
      await second.ready();
      try {
        const unknown = 'nobody.shared@contoso.example';
        const answers: string[] = [];
        for (let i = 0; i < 5; i++) answers.push(await apolloLogin(unknown, i % 2 === 0 ? server.app : second));
        expect(answers).toEqual([...Array(4).fill('401 Failed'), '401 Lockedout']);
        // Any spelling of the address is the same address.
        expect(await apolloLogin('NoBody.Shared@Contoso.Example', second)).toBe('401 Lockedout');
      } finally {
        await second.close();
      }
    });

    it('stores an unknown address only as a keyed hash', async () => {
      const unknown = 'nobody.stored@contoso.example';
      await apolloLogin(unknown);
      const rows = await server.ctx.db.query<Record<string, unknown>>('select * from sign_in_failures');
      expect(JSON.stringify(rows)).not.toContain('nobody');
      expect(rows.map((r) => r.address_hash)).toContain(addressKey(TEST_SECRET_KEY, unknown));
    });
  });

  describe('register', () => {
    it('hashes the password for a taken address as for a free one, and mails the confirmation after the answer', async () => {
      const register = (email: string) =>
        server.request({ method: 'POST', url: '/apollo-beta/register', body: { email, password: 'Fresh-Passw0rd!' } });
      const mails = server.mails.length;
      let before = hashes();
      const free = await register('new.account@register-work.example');
      expect(free.statusCode).toBe(200);
      const freeHashes = hashes() - before;
      // The answer has gone; the mail has not yet.
      expect(server.mails.length).toBe(mails);
      await drainBackground(server.ctx);
      expect(server.mails.slice(mails).map((m) => m.to)).toEqual(['new.account@register-work.example']);

      before = hashes();
      const taken = await register('New.Account@register-work.example');
      expect(taken.statusCode).toBe(400);
      expect(Object.keys((taken.json() as { errors: object }).errors)).toEqual(['DuplicateUserName']);
      expect(hashes() - before).toBe(freeHashes);
      expect(freeHashes).toBe(1);
    });
  });

  describe('user and partner-client creation', () => {
    let partner = '';
    const clientUser = 'it@northwind-client.example';
    beforeAll(async () => {
      partner = await sessionToken(server, PARTNER);
      const northwind = await organisationId(server, 'Northwind Traders');
      const made = await server.request({
        method: 'POST',
        url: '/api/admin/user_create',
        token: partner,
        body: { email: clientUser, displayName: 'Northwind IT', role: 'admin', organisationId: northwind },
      });
      expect(made.statusCode, made.body).toBe(201);
    });

    /** The answer and the password hashes made, for one request. */
    const attempt = async (url: string, body: object) => {
      const before = hashes();
      const answer = await server.request({ method: 'POST', url, token: partner, body });
      return { status: answer.statusCode, body: answer.json() as object, hashes: hashes() - before };
    };

    it("refuses a taken address alike whether it is the caller's organisation's, a client's or another's", async () => {
      // The partner's own, its client Northwind's, and Contoso's (an organisation that is none of the partner's).
      for (const url of ['/api/admin/user_create', '/api/partner-clients']) {
        const answers = [];
        for (const [i, email] of [PARTNER, clientUser, ADMIN].entries()) {
          answers.push(
            await attempt(
              url,
              url === '/api/admin/user_create'
                ? { email, displayName: 'Someone', role: 'partner' }
                : { name: 'Taken Address', abbr: `taken-${i}`, license: 'full', adminEmail: email },
            ),
          );
        }
        expect(answers[0], url).toEqual({
          status: 409,
          body: { message: 'A user with this email already exists.', code: 'emailTaken' },
          hashes: 0,
        });
        expect(answers[1], url).toEqual(answers[0]);
        expect(answers[2], url).toEqual(answers[0]);
      }
    });

    it("compares a partner's short names with its own organisation's and its clients' only", async () => {
      let n = 0;
      const add = (abbr: string) =>
        attempt('/api/partner-clients', {
          name: `Client ${abbr}`,
          abbr,
          license: 'full',
          adminEmail: `admin${n++}@${abbr}.short-names.example`,
        });
      const taken = {
        message: 'This short name is already used by one of your organisations.',
        code: 'shortNameTaken',
      };
      // Its own organisation's and a client's: refused.
      expect((await add('fabrikam')).body).toEqual(taken);
      expect((await add('northwind')).body).toEqual(taken);
      // Contoso's, a customer that is not its client: nothing to say about it, the short name is free.
      expect((await add('contoso')).status).toBe(200);
      // Now it is one of the partner's own.
      expect((await add('contoso')).body).toEqual(taken);
    });
  });
});

afterAll(() => {
  vi.restoreAllMocks();
});
