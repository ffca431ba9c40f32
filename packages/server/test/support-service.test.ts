import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../src/access/actor.js';
import type { AppContext } from '../src/context.js';
import { MAX_PER_HOUR, sendSupportRequest, supportContacts } from '../src/modules/support/service.js';
import { ADMIN, PARTNER, refusal, seededUser, useTestServer } from './helpers.js';

/** The support service's rules, called directly: no HTTP, no session. */
describe('support service', () => {
  const server = useTestServer();
  let admin: Actor;
  let partner: Actor;

  beforeAll(async () => {
    admin = { user: await seededUser(server, ADMIN), ip: '192.0.2.21' };
    partner = { user: await seededUser(server, PARTNER), ip: '192.0.2.22' };
  });
  // Each test starts on a day without requests: its numbering from 0001 and the hourly limit untouched.
  beforeEach(async () => {
    await server.ctx.db.query('delete from support_requests');
  });

  const request = (subject: string) => ({ subject, area: 'other' as const, message: 'x' });

  async function stored(reference: string) {
    const [row] = await server.ctx.db.query<{ subject: string; message: string; phone: string | null; area: string }>(
      'select subject, message, phone, area from support_requests where reference = $1',
      [reference],
    );
    return row;
  }

  it("keeps the request trimmed with the day's next reference, audits it and mails support and the requester", async () => {
    const before = server.mails.length;
    const sent = await sendSupportRequest(server.ctx, admin, {
      subject: '  Restore failed ',
      area: 'backup',
      message: ' The restore of a folder failed. ',
      phone: '  ',
    });
    expect(sent.reference).toBe('SR-20261102-0001');
    expect(sent.createdAt.getTime()).toBe(server.clock.now);
    expect(await stored(sent.reference)).toEqual({
      subject: 'Restore failed',
      message: 'The restore of a folder failed.',
      phone: null,
      area: 'backup',
    });
    const mails = server.mails.slice(before);
    expect(mails.map((m) => m.to)).toEqual(['support@portal.test', ADMIN]);
    expect(mails[0]?.subject).toBe('[SR-20261102-0001] Restore failed');
    expect(mails[0]?.text).toContain('Phone: —');
    expect(mails[1]?.text).toContain('SR-20261102-0001');
    const audit = await server.ctx.db.query<{ actor_email: string; ip: string; outcome: string; details: object }>(
      `select actor_email, ip, outcome, details from audit_log where action = 'support.request' and target = $1`,
      [sent.reference],
    );
    expect(audit.slice(-1)).toEqual([
      { actor_email: ADMIN, ip: '192.0.2.21', outcome: 'success', details: { area: 'backup' } },
    ]);
    // The numbering is the day's, whoever sends.
    expect((await sendSupportRequest(server.ctx, partner, request('Another'))).reference).toBe('SR-20261102-0002');
  });

  it('refuses more than the hourly limit of one person with 429, keeping and mailing nothing of it', async () => {
    for (let i = 0; i < MAX_PER_HOUR; i++) await sendSupportRequest(server.ctx, admin, request(`n${i}`));
    const before = server.mails.length;
    expect(await refusal(sendSupportRequest(server.ctx, admin, request('one too many')))).toEqual({
      status: 429,
      message: `At most ${MAX_PER_HOUR} support requests an hour; please wait or call us.`,
    });
    expect(server.mails.length).toBe(before);
    const [count] = await server.ctx.db.query<{ n: number }>('select count(*)::int as n from support_requests');
    expect(count?.n).toBe(MAX_PER_HOUR);
    // Another person's limit is their own, and an hour later the first may send again.
    expect((await sendSupportRequest(server.ctx, partner, request('partner'))).reference).toMatch(/^SR-20261102-/);
    server.clock.advance(3_600_001);
    expect((await sendSupportRequest(server.ctx, admin, request('later'))).reference).toMatch(/^SR-/);
  });

  it('keeps a request whose copy to the requester cannot be delivered, and fails when support cannot be mailed', async () => {
    const delivered: string[] = [];
    const copyFails: AppContext = {
      ...server.ctx,
      mailer: {
        async send(message) {
          if (message.to === ADMIN) throw new Error('mailbox unavailable');
          delivered.push(message.to);
        },
      },
    };
    const sent = await sendSupportRequest(copyFails, admin, request('Copy fails'));
    expect(delivered).toEqual(['support@portal.test']);
    expect(await stored(sent.reference)).toBeDefined();

    const supportDown: AppContext = {
      ...server.ctx,
      mailer: {
        async send() {
          throw new Error('smtp unavailable');
        },
      },
    };
    await expect(sendSupportRequest(supportDown, admin, request('Support down'))).rejects.toThrow('smtp unavailable');
  });

  it('names the configured support address and phone', () => {
    expect(supportContacts(server.ctx)).toEqual({ email: 'support@portal.test', phone: '+49 30 555 0100' });
  });
});
