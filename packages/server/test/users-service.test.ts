import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.js';
import type { User } from '../src/modules/identity/users.js';
import { findUserByEmail } from '../src/modules/identity/users-repository.js';
import {
  createUser,
  DEFAULT_NOTIFICATIONS,
  notificationSettings,
  updateNotificationSettings,
} from '../src/modules/users/service.js';
import { ADMIN, PARTNER, refusal, seededUser, TENANTS, useTestServer } from './helpers.js';

/** The users service's rules, called directly: no HTTP, no session. */
describe('users service', () => {
  const server = useTestServer();
  let admin: User;
  let partner: User;
  let operator: User;
  let northwindOrganisation = '';

  beforeAll(async () => {
    admin = await seededUser(server, ADMIN);
    partner = await seededUser(server, PARTNER);
    operator = { ...partner, id: randomUUID(), email: 'operator@portal.test', role: 'operator' };
    const [row] = await server.ctx.db.query<{ organisation_id: string }>(
      'select organisation_id from tenants where tenant_id = $1',
      [TENANTS.northwind],
    );
    northwindOrganisation = row?.organisation_id ?? '';
  });

  const email = () => `user-${randomUUID().slice(0, 8)}@example.test`;

  it("creates a user in the caller's organisation by default, audited and invited by email", async () => {
    const address = email();
    const mailsBefore = server.mails.length;
    const { user, createdAt } = await createUser(
      server.ctx,
      { user: admin, ip: '192.0.2.5' },
      { email: address, displayName: 'New Admin', role: 'admin' },
    );
    expect(user).toMatchObject({
      email: address,
      displayName: 'New Admin',
      role: 'admin',
      organisationId: admin.organisationId,
      totpEnabled: false,
    });
    expect(createdAt).toBeInstanceOf(Date);
    expect(server.mails.slice(mailsBefore).map((m) => m.to)).toEqual([address]);
    expect(
      await server.ctx.db.query(
        "select organisation_id, actor_email, ip, details from audit_log where action = 'user.create' and target = $1",
        [user.id],
      ),
    ).toEqual([
      {
        organisation_id: admin.organisationId,
        actor_email: ADMIN,
        ip: '192.0.2.5',
        details: { email: address, role: 'admin' },
      },
    ]);
  });

  it("lets a partner create a client's administrator, and answers another organisation's as unknown", async () => {
    const { user } = await createUser(
      server.ctx,
      { user: partner, ip: '192.0.2.5' },
      { email: email(), displayName: 'Client Admin', role: 'admin', organisationId: northwindOrganisation },
    );
    expect(user.organisationId).toBe(northwindOrganisation);
    // An administrator of Contoso may not act for Northwind: the same 404 as an organisation that does not exist.
    for (const organisationId of [northwindOrganisation, randomUUID()]) {
      expect(
        await refusal(
          createUser(
            server.ctx,
            { user: admin, ip: '192.0.2.5' },
            { email: email(), displayName: 'x', role: 'admin', organisationId },
          ),
        ),
      ).toEqual({ status: 404, message: 'Organisation not found' });
    }
  });

  it('gives each kind of organisation its own role only, operators only from operators, each address once', async () => {
    const create = (user: User, role: User['role'], organisationId?: string, address = email()) =>
      createUser(
        server.ctx,
        { user, ip: '192.0.2.5' },
        { email: address, displayName: 'x', role, ...(organisationId ? { organisationId } : {}) },
      );
    expect(await refusal(create(admin, 'partner'))).toEqual({
      status: 403,
      message: 'The role partner cannot be given in this organisation.',
    });
    expect(await refusal(create(partner, 'admin'))).toEqual({
      status: 403,
      message: 'The role admin cannot be given in this organisation.',
    });
    expect(await refusal(create(operator, 'operator', northwindOrganisation))).toEqual({
      status: 403,
      message: 'The role operator cannot be given in this organisation.',
    });
    // A partner organisation takes partners; an operator creates one there too.
    expect((await create(partner, 'partner')).user.role).toBe('partner');
    expect((await create(operator, 'partner', partner.organisationId)).user.role).toBe('partner');
    expect(await refusal(create(admin, 'admin', undefined, ADMIN.toUpperCase()))).toEqual({
      status: 409,
      message: 'A user with this email already exists.',
    });
  });

  it('writes the user and its audit entry in one transaction, and invites no one when it fails', async () => {
    const failingAudit: AppContext = {
      ...server.ctx,
      audit: async (event, tx) => {
        expect(tx).toBeDefined();
        await server.ctx.audit(event, tx);
        throw new Error('audit log unavailable');
      },
    };
    const address = email();
    const mailsBefore = server.mails.length;
    await expect(
      createUser(failingAudit, { user: admin, ip: '192.0.2.5' }, { email: address, displayName: 'x', role: 'admin' }),
    ).rejects.toThrow('audit log unavailable');
    expect(await findUserByEmail(server.ctx.db, address)).toBeUndefined();
    expect(server.mails.length).toBe(mailsBefore);
  });

  it('answers the defaults until settings are stored, then the stored ones over the defaults', async () => {
    const { user } = await createUser(
      server.ctx,
      { user: admin, ip: '192.0.2.5' },
      { email: email(), displayName: 'Notified', role: 'admin' },
    );
    expect(await notificationSettings(server.ctx, user)).toEqual(DEFAULT_NOTIFICATIONS);
    const chosen = { ...DEFAULT_NOTIFICATIONS, jobFinished: true, weeklyReport: false, email: 'ops@example.test' };
    expect(await updateNotificationSettings(server.ctx, user, chosen)).toEqual(chosen);
    expect(await notificationSettings(server.ctx, user)).toEqual(chosen);
    // Settings stored before a setting existed get that setting's default.
    await server.ctx.db.query('update notification_settings set settings = $2 where user_id = $1', [
      user.id,
      JSON.stringify({ jobFailed: false }),
    ]);
    expect(await notificationSettings(server.ctx, user)).toEqual({ ...DEFAULT_NOTIFICATIONS, jobFailed: false });
  });
});
