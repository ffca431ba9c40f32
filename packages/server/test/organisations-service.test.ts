import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.js';
import type { User } from '../src/modules/identity/users.js';
import { findUserByEmail } from '../src/modules/identity/users-repository.js';
import { findWorkerByOrganisation } from '../src/modules/organisations/repository.js';
import {
  addPartnerClient,
  customerClients,
  partnerClients,
  partners,
  workerChecks,
} from '../src/modules/organisations/service.js';
import { ADMIN, PARTNER, refusal, seededUser, useTestServer } from './helpers.js';

/** The organisations service's rules, called directly: no HTTP, no session. */
describe('organisations service', () => {
  const server = useTestServer();
  let admin: User;
  let partner: User;
  let operator: User;

  beforeAll(async () => {
    admin = await seededUser(server, ADMIN);
    partner = await seededUser(server, PARTNER);
    // No operator is seeded; the rules look at the role only.
    operator = { ...admin, id: randomUUID(), email: 'operator@portal.test', role: 'operator' };
  });

  const suffix = () => randomUUID().slice(0, 8);
  const clientBody = (overrides: Record<string, string> = {}) => {
    const s = suffix();
    return {
      name: `Client ${s}`,
      abbr: `c-${s}`,
      license: 'trial' as const,
      adminEmail: `admin-${s}@client.example`,
      ...overrides,
    };
  };

  async function organisationsNamed(name: string) {
    return server.ctx.db.query('select 1 from organisations where name = $1', [name]);
  }

  it('lets a partner add a client with its worker and administrator, audited and invited by email', async () => {
    const body = clientBody({ name: '  Trimmed Client  ' });
    const mailsBefore = server.mails.length;
    const { organisation, worker } = await addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, body);
    expect(organisation).toMatchObject({
      name: 'Trimmed Client',
      kind: 'customer',
      partnerId: partner.organisationId,
      license: 'trial',
      abbr: body.abbr,
    });
    expect(worker.organisationId).toBe(organisation.id);
    expect(await findUserByEmail(server.ctx.db, body.adminEmail)).toMatchObject({
      role: 'admin',
      organisationId: organisation.id,
    });
    expect(server.mails.slice(mailsBefore).map((m) => m.to)).toEqual([body.adminEmail]);
    expect(
      await server.ctx.db.query(
        "select actor_email, ip, details from audit_log where action = 'partner.client.create' and target = $1",
        [organisation.id],
      ),
    ).toEqual([
      {
        actor_email: PARTNER,
        ip: '192.0.2.9',
        details: { name: body.name, license: 'trial', adminEmail: body.adminEmail },
      },
    ]);
  });

  it("gives a new client a worker address no other worker has, after a deleted organisation's was freed", async () => {
    const first = await addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, clientBody());
    await addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, clientBody());
    // The first client goes, as an organisation's deletion removes it: one worker fewer than the
    // highest address in use.
    await server.ctx.db.query('delete from users where organisation_id = $1', [first.organisation.id]);
    await server.ctx.db.query('delete from workers where organisation_id = $1', [first.organisation.id]);
    await server.ctx.db.query('delete from organisations where id = $1', [first.organisation.id]);
    const next = await addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, clientBody());
    const addresses = await server.ctx.db.query<{ worker_ip: string }>('select worker_ip from workers');
    expect(addresses.filter((a) => a.worker_ip === next.worker.workerIp)).toHaveLength(1);
  });

  it('refuses a client from anyone but a partner, a name blank once trimmed, a taken email or short name', async () => {
    const body = clientBody();
    for (const user of [admin, operator]) {
      expect(await refusal(addPartnerClient(server.ctx, { user, ip: '192.0.2.9' }, body))).toEqual({
        status: 403,
        message: 'Only partners add client organisations.',
      });
    }
    expect(
      await refusal(addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, { ...body, name: ' x ' })),
    ).toEqual({ status: 400, message: 'Invalid request' });
    expect(
      await refusal(addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, { ...body, adminEmail: ADMIN })),
    ).toEqual({ status: 409, message: 'A user with this email already exists.' });
    expect(
      await refusal(addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, { ...body, abbr: 'fabrikam' })),
    ).toEqual({ status: 409, message: 'This short name is already used by one of your organisations.' });
    expect(await organisationsNamed(body.name)).toEqual([]);
    expect(await findUserByEmail(server.ctx.db, body.adminEmail)).toBeUndefined();
  });

  it('adds the organisation, its administrator and the audit entry in one transaction, and invites no one when it fails', async () => {
    const failingAudit: AppContext = {
      ...server.ctx,
      audit: async (event, tx) => {
        expect(tx).toBeDefined();
        await server.ctx.audit(event, tx);
        throw new Error('audit log unavailable');
      },
    };
    const body = clientBody();
    const mailsBefore = server.mails.length;
    await expect(addPartnerClient(failingAudit, { user: partner, ip: '192.0.2.9' }, body)).rejects.toThrow(
      'audit log unavailable',
    );
    expect(await organisationsNamed(body.name)).toEqual([]);
    expect(await findUserByEmail(server.ctx.db, body.adminEmail)).toBeUndefined();
    expect(server.mails.length).toBe(mailsBefore);
  });

  it("shows a partner its own clients, an operator every partner's, and refuses an administrator", async () => {
    const added = await addPartnerClient(server.ctx, { user: partner, ip: '192.0.2.9' }, clientBody());
    const own = await partnerClients(server.ctx, partner);
    expect(own.every((c) => c.organisation.partnerId === partner.organisationId)).toBe(true);
    expect(own.map((c) => c.organisation.id)).toContain(added.organisation.id);
    expect((await partnerClients(server.ctx, operator)).map((c) => c.organisation.id).sort()).toEqual(
      own.map((c) => c.organisation.id).sort(),
    );
    expect(await refusal(partnerClients(server.ctx, admin))).toEqual({ status: 403, message: 'Access denied' });
    // An administrator works as its own organisation only; a partner as each of its customer clients.
    expect((await customerClients(server.ctx, admin)).map((c) => c.organisation.id)).toEqual([admin.organisationId]);
    expect((await customerClients(server.ctx, partner)).map((c) => c.organisation.id).sort()).toEqual(
      own.map((c) => c.organisation.id).sort(),
    );
  });

  it('lists the partners with their numbers of clients to operators only', async () => {
    const listed = await partners(server.ctx, operator);
    const fabrikam = listed.find((p) => p.id === partner.organisationId);
    expect(fabrikam?.clientCount).toBe((await partnerClients(server.ctx, partner)).length);
    for (const user of [admin, partner]) {
      expect(await refusal(partners(server.ctx, user))).toEqual({ status: 403, message: 'Access denied' });
    }
  });

  it('reports a worker without an active tenant as having no tenant, provisioning or storage', async () => {
    const worker = await findWorkerByOrganisation(server.ctx.db, admin.organisationId);
    if (!worker) throw new Error('no worker');
    const configured = await workerChecks(server.ctx, worker);
    expect(configured.checks.map((c) => [c.name, c.ok])).toEqual([
      ['database', true],
      ['tenant', true],
      ['provisioning', true],
      ['storage', true],
    ]);
    const bare = await workerChecks(server.ctx, { ...worker, stagingtenantId: null });
    expect(bare).toMatchObject({ workerIp: worker.workerIp, online: true, lastSeen: server.ctx.now().toISOString() });
    expect(bare.checks.slice(1)).toEqual([
      { name: 'tenant', ok: false, message: 'No tenant was found in the configuration, please configure one.' },
      { name: 'provisioning', ok: false, message: 'The tenant is missing.' },
      { name: 'storage', ok: false, message: 'No storage location is configured.' },
    ]);
  });
});
