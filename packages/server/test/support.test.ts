import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PER_HOUR } from '../src/modules/support/service.js';
import { ADMIN, PARTNER, sessionToken, useTestServer } from './helpers.js';

describe('support requests', () => {
  const server = useTestServer();
  let token = '';
  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });
  // Each test starts on a day without requests: its numbering from 0001 and the hourly limit untouched.
  beforeEach(async () => {
    await server.ctx.db.query('delete from support_requests');
  });
  const send = (body: object) =>
    server.request({ method: 'POST', url: '/apollo-beta/api/support-requests', token, body });

  it('keeps the request, mails it to support with the requester and sends the requester a copy', async () => {
    const before = server.mails.length;
    const response = await send({
      subject: 'Restore failed',
      area: 'backup',
      message: 'The restore of a folder failed.',
      phone: '+49 89 1',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { reference } = response.json() as { reference: string };
    expect(reference).toMatch(/^SR-20261102-0001$/);
    const mails = server.mails.slice(before);
    expect(mails.map((m) => m.to)).toEqual(['support@portal.test', ADMIN]);
    expect(mails[0]?.subject).toBe(`[${reference}] Restore failed`);
    expect(mails[0]?.text).toContain(ADMIN);
    expect(mails[0]?.text).toContain('The restore of a folder failed.');
    expect(mails[1]?.text).toContain(reference);
    const [row] = await server.ctx.db.query<{ area: string; phone: string }>(
      'select area, phone from support_requests where reference = $1',
      [reference],
    );
    expect(row).toEqual({ area: 'backup', phone: '+49 89 1' });
    const second = await send({ subject: 'Another', area: 'other', message: 'x' });
    expect((second.json() as { reference: string }).reference).toBe('SR-20261102-0002');
  });

  it('refuses what the form would refuse, and more than the hourly limit', async () => {
    for (const body of [
      { subject: '', area: 'backup', message: 'x' },
      { subject: 'x', area: 'nothing', message: 'x' },
      { subject: 'x', area: 'backup', message: 'y'.repeat(5001) },
    ])
      expect((await send(body)).statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    // The limit counts this hour's requests, and none were sent yet.
    for (let i = 0; i < MAX_PER_HOUR; i++)
      expect((await send({ subject: `n${i}`, area: 'other', message: 'x' })).statusCode).toBe(201);
    const limited = await send({ subject: 'one too many', area: 'other', message: 'x' });
    expect(limited.statusCode).toBe(429);
    server.clock.advance(3_600_001);
    expect((await send({ subject: 'later', area: 'other', message: 'x' })).statusCode).toBe(201);
    const anonymous = await server.request({
      method: 'POST',
      url: '/apollo-beta/api/support-requests',
      body: { subject: 'x', area: 'other', message: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('names the configured support address and phone, to signed-in users only', async () => {
    const contacts = await server.request({ method: 'GET', url: '/apollo-beta/api/support-contacts', token });
    expect(contacts.statusCode).toBe(200);
    expect(contacts.json()).toEqual({ email: 'support@portal.test', phone: '+49 30 555 0100' });
    const anonymous = await server.request({ method: 'GET', url: '/apollo-beta/api/support-contacts' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('audits the request, and keeps it when the copy to the requester cannot be delivered', async () => {
    const original = server.ctx.mailer.send;
    const delivered: string[] = [];
    server.ctx.mailer.send = async (message) => {
      if (message.to === ADMIN) throw new Error('mailbox unavailable');
      delivered.push(message.to);
    };
    // References start again each test (see beforeEach): the entries of this request are those after here.
    const [mark] = await server.ctx.db.query<{ seq: number }>('select max(seq) as seq from audit_log');
    try {
      const response = await send({ subject: 'Copy fails', area: 'reports', message: 'Report question.' });
      expect(response.statusCode, response.body).toBe(201);
      const { reference } = response.json() as { reference: string };
      expect(delivered).toEqual(['support@portal.test']);
      const audit = await server.ctx.db.query<{ action: string; actor_email: string }>(
        'select action, actor_email from audit_log where target = $1 and seq > $2',
        [reference, Number(mark?.seq)],
      );
      expect(audit).toEqual([{ action: 'support.request', actor_email: ADMIN }]);
    } finally {
      server.ctx.mailer.send = original;
    }
  });

  it('numbers requests sent at the same time without a gap or a repeat', async () => {
    const partner = await sessionToken(server, PARTNER);
    const responses = await Promise.all(
      [token, partner, token, partner].map((t, i) =>
        server.request({
          method: 'POST',
          url: '/apollo-beta/api/support-requests',
          token: t,
          body: { subject: `at once ${i}`, area: 'other', message: 'x' },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const references = responses.map((r) => (r.json() as { reference: string }).reference).sort();
    expect(references).toEqual(['0001', '0002', '0003', '0004'].map((n) => `SR-20261102-${n}`));
  });
});
