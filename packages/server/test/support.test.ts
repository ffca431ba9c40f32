import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PER_HOUR } from '../src/modules/support/routes.js';
import { ADMIN, sessionToken, useTestServer } from './helpers.js';

describe('support requests', () => {
  const server = useTestServer();
  let token = '';
  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
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
    for (let i = 2; i < MAX_PER_HOUR; i++)
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
});
