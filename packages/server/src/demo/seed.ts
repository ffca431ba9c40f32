import { randomBytes, randomUUID } from 'node:crypto';
import {
  buildTenant,
  firstUserAddress,
  fleetTenants,
  simulatorEndpoints,
  type TenantSize,
} from '@compliance-portal/m365-simulator';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { hashPassword, passwordProblems } from '../crypto/passwords.js';
import type { Queryable } from '../db/database.js';
import { insertUser } from '../modules/identity/users-repository.js';
import {
  createClientOrganisations,
  createOrganisation,
  type LicenseKind,
} from '../modules/organisations/repository.js';
import { insertTenant } from '../modules/tenants/repository.js';

/** Fixed so that a reseeded database keeps its links; Contoso's is also its Entra tenant for sign-in. */
const CONTOSO_TENANT_ID = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';

export const DEMO_USERS = {
  admin: 'admin@contoso.example',
  partner: 'partner@fabrikam.example',
  /** Signs in with Microsoft (demo mode: through the simulator's sign-in page), as the first user of Contoso's tenant. */
  microsoft: firstUserAddress(CONTOSO_TENANT_ID),
} as const;

interface DemoClient {
  name: string;
  abbr: string;
  license: LicenseKind;
  tenantId: string;
  /** Its simulated Microsoft 365 (demo mode), over the simulator's demo size. */
  size: Partial<TenantSize>;
}

/** Demo tenants carry fixed IDs so that a reseeded database keeps its links. */
const contoso: DemoClient = {
  name: 'Contoso',
  abbr: 'contoso',
  license: 'full',
  tenantId: CONTOSO_TENANT_ID,
  size: { messagesPerChannel: 3 },
};
/** The partner's clients differ: a trading company, a small business on trial, a bank that archives mail. */
const partnerClients: DemoClient[] = [
  {
    name: 'Northwind Traders',
    abbr: 'northwind',
    license: 'full',
    tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a02',
    size: { users: 5, sites: 3, filesPerDrive: 8, teams: 1, chats: 2 },
  },
  {
    name: 'Tailspin Toys',
    abbr: 'tailspin',
    license: 'trial',
    tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a03',
    size: { users: 3, sites: 1, teams: 1, channelsPerTeam: 1, filesPerDrive: 6, chats: 1 },
  },
  {
    name: 'Woodgrove Bank',
    abbr: 'woodgrove',
    license: 'full',
    tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a04',
    size: { users: 4, sites: 1, teams: 1, channelsPerTeam: 1, filesPerDrive: 4, messagesPerFolder: 8, chats: 3 },
  },
];

/** The clients PORTAL_DEMO_CLIENTS gives the partner beyond Northwind, Tailspin and Woodgrove. */
export interface DemoFleetClient extends DemoClient {
  /** Its place among the drawn clients, from 0: what its history holds follows from it (demo-history.ts). */
  index: number;
  /** A trial ends this many days after the demo's present; null: a full licence, or a trial without an end. */
  trialDaysLeft: number | null;
}

/** Microsoft's fictitious companies and trades, combined into the drawn clients' names. */
const COMPANIES = [
  'Alpine',
  'Bellows',
  'Blue Yonder',
  'City Power',
  'Coho',
  'Consolidated',
  'Fourth Coffee',
  'Graphic Design',
  'Humongous',
  'Litware',
  'Lucerne',
  'Margie’s',
  'Nod',
  'Proseware',
  'Relecloud',
  'Southridge',
  'Trey',
  'VanArsdel',
  'Wide World',
  'Wingtip',
];
const TRADES = [
  'Logistics',
  'Insurance',
  'Airlines',
  'Winery',
  'Publishing',
  'Clinic',
  'Architects',
  'Bakery',
  'Engineering',
  'Travel',
  'Legal',
  'Hotels',
  'Foods',
  'Motors',
  'Pharmacy',
  'Studios',
  'Energy',
  'Textiles',
  'Robotics',
  'Media',
  'Dental',
  'Brewing',
  'Outfitters',
  'Realty',
  'Accounting',
];

/**
 * Content of each drawn client's simulated tenant beyond its drawn size: light (a file a OneDrive
 * and a message a mail folder), so the history of hundreds of clients is made in minutes.
 */
const FLEET_CONTENT: Partial<TenantSize> = {
  filesPerDrive: 1,
  versionsPerFile: 1,
  messagesPerFolder: 1,
  messagesPerChannel: 2,
  repliesPerMessage: 0,
  messagesPerChat: 1,
};

/** Days left of the drawn clients' trials that end soon (the fleet shows them), in order. */
const TRIALS_ENDING_SOON = [2, 5];

/**
 * The clients drawn beyond the first three (PORTAL_DEMO_CLIENTS minus three), the same for the same
 * count: each with a tenant of the simulator's fleet (10 to 200 users, few large and many small) and a
 * name of its own; one in eight on trial, the first two of them ending within a week.
 */
export function demoFleetClients(count: number): DemoFleetClient[] {
  let trials = 0;
  return fleetTenants({ count, seed: 'portal-demo-clients', size: FLEET_CONTENT }).map((tenant, index) => {
    const company = COMPANIES[index % COMPANIES.length] ?? 'Client';
    const round = Math.floor(index / COMPANIES.length);
    const trade = TRADES[round % TRADES.length] ?? 'Services';
    const name = `${company} ${trade}${round >= TRADES.length ? ` ${Math.floor(round / TRADES.length) + 1}` : ''}`;
    const trial = index % 8 === 1;
    const trialDaysLeft = trial ? (TRIALS_ENDING_SOON[trials++] ?? 20 + (index % 10)) : null;
    return {
      name,
      abbr: name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
      license: trial ? 'trial' : 'full',
      tenantId: tenant.tenantId,
      size: tenant.size,
      index,
      trialDaysLeft,
    };
  });
}

/** How many clients are drawn beyond the first three (a configuration made without PORTAL_DEMO_CLIENTS: none). */
export function drawnClientCount(config: Pick<Config, 'demoClients'>): number {
  return Math.max(0, (config.demoClients ?? partnerClients.length) - partnerClients.length);
}

/** Every demo tenant's client: Contoso, the first three and the drawn ones. */
function allDemoClients(config: Config): DemoClient[] {
  return [contoso, ...partnerClients, ...demoFleetClients(drawnClientCount(config))];
}

/** The ids of every demo tenant the configuration has (the fixed four and the drawn clients'). */
export function demoTenantIds(config: Config): string[] {
  return allDemoClients(config).map((c) => c.tenantId);
}

/** The demo tenants by name, for the demo history. */
export const DEMO_TENANTS = Object.fromEntries([contoso, ...partnerClients].map((c) => [c.abbr, c.tenantId])) as Record<
  'contoso' | 'northwind' | 'tailspin' | 'woodgrove',
  string
>;

/**
 * The content sizes of a demo tenant in the simulator: the client's own (the partner's clients
 * differ), with PORTAL_M365_SIMULATOR_SIZE over them.
 */
export function demoTenantSize(config: Config, tenantId: string): Partial<TenantSize> {
  return { ...demoTenantSizes(config).get(tenantId), ...config.m365SimulatorSize };
}

/** Each demo tenant's own sizes (without PORTAL_M365_SIMULATOR_SIZE), by tenant id. */
function demoTenantSizes(config: Config): Map<string, Partial<TenantSize>> {
  return new Map(allDemoClients(config).map((c) => [c.tenantId, c.size]));
}

/**
 * A demo tenant's app registration id, fixed like its tenant id (the same last twelve digits), so that
 * an integrator's code, or a test, can ask the demo simulator for a token as that app.
 */
function demoApplicationId(tenantId: string): string {
  return `5e1f0a4b-6c2d-4e8f-9a31-${tenantId.slice(-12)}`;
}

/**
 * A simulated tenant the demo world has not connected, for connecting one by admin consent: its app
 * registration (fixed id; the secret PORTAL_DEMO_CLIENT_SECRET, else one made once) asks for the
 * portal's permissions, none granted until its administrator (the tenant's first account) consents.
 * Its id begins otherwise than the others', so its accounts have a domain of their own.
 */
export const DEMO_CONSENT_TENANT = (() => {
  const tenantId = 'ad7e0a5c-3b2f-4c1d-8e9f-0a1b2c3d4e05';
  return {
    name: 'Adventure Works',
    tenantId,
    applicationId: demoApplicationId(tenantId),
    administrator: firstUserAddress(tenantId),
    size: {
      users: 3,
      sites: 1,
      teams: 1,
      channelsPerTeam: 1,
      filesPerDrive: 5,
      chats: 1,
    } satisfies Partial<TenantSize>,
  };
})();

/** A password that meets the rules: 18 random characters plus one of each required class. */
export function strongPassword(): string {
  return `${randomBytes(14).toString('base64url')}-Aa7`;
}

async function addClient(ctx: AppContext, tx: Queryable, client: DemoClient, partnerId: string | null) {
  const { organisation, worker } = await createOrganisation(tx, {
    name: client.name,
    kind: 'customer',
    license: client.license,
    partnerId,
    abbr: client.abbr,
  });
  const now = ctx.now();
  await insertTenant(
    tx,
    {
      tenantId: client.tenantId,
      organisationId: organisation.id,
      tenantName: `${client.abbr}.onmicrosoft.com`,
      applicationId: demoApplicationId(client.tenantId),
      objectId: randomUUID(),
      redirectUri: `${ctx.config.publicUrl}/auth/callback`,
      clientSecretSealed: ctx.secrets.seal(ctx.config.demoClientSecret ?? randomBytes(24).toString('base64url')),
      isActive: true,
      // The demo tenants live in the built-in simulator (its port is set again at each start, see
      // demo/demo-simulator.ts); null would mean Microsoft's own endpoints.
      ...(ctx.config.demo
        ? (() => {
            const endpoints = simulatorEndpoints(`https://localhost:${ctx.config.m365SimulatorPort}`);
            return { graphBaseUrl: endpoints.graphBaseUrl, authorityUrl: endpoints.authorityHost };
          })()
        : { graphBaseUrl: null, authorityUrl: null }),
    },
    now,
  );
  await tx.query(`update tenants set provisioning = 'provisioned' where tenant_id = $1`, [client.tenantId]);
  await tx.query('update workers set stagingtenant_id = $2 where id = $1', [worker.workerId, client.tenantId]);
  const primary = randomUUID();
  for (const [id, name, site] of [
    [primary, 'Primary storage', 'compliance-backup'],
    [randomUUID(), 'Archive storage', 'compliance-archive'],
  ] as const) {
    await tx.query(
      'insert into locations (location_id, tenant_id, name, site_address, created_at) values ($1, $2, $3, $4, $5)',
      [id, client.tenantId, name, `https://${client.abbr}.sharepoint.com/sites/${site}`, now],
    );
  }
  await tx.query(
    'insert into backup_config (tenant_id, default_location_id, teams_configured, exchange_configured) values ($1, $2, true, true)',
    [client.tenantId, primary],
  );
  return organisation;
}

/**
 * The drawn clients (PORTAL_DEMO_CLIENTS beyond three) of the partner, as addClient makes one, in a
 * few statements for all of them: organisations and workers, tenants, storage locations, backup settings.
 */
async function addFleetClients(ctx: AppContext, tx: Queryable, partnerId: string, present: Date) {
  const clients = demoFleetClients(drawnClientCount(ctx.config));
  if (clients.length === 0) return;
  const workers = await createClientOrganisations(
    tx,
    partnerId,
    clients.map((c) => ({
      name: c.name,
      license: c.license,
      abbr: c.abbr,
      licenseValidUntil: c.trialDaysLeft === null ? null : new Date(present.getTime() + c.trialDaysLeft * 86_400_000),
    })),
  );
  const endpoints = ctx.config.demo
    ? simulatorEndpoints(`https://localhost:${ctx.config.m365SimulatorPort}`)
    : { graphBaseUrl: null, authorityHost: null };
  const tenantIds = clients.map((c) => c.tenantId);
  await tx.query(
    `insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri,
       client_secret_enc, is_active, provisioning, graph_base_url, authority_url, created_at, updated_at)
     select tenant_id, organisation_id, tenant_name, application_id, object_id, $6, secret, true, 'provisioned', $7, $8, $9, $9
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $10::text[])
         as t(tenant_id, organisation_id, tenant_name, application_id, object_id, secret)`,
    [
      tenantIds,
      workers.map((w) => w.organisationId),
      clients.map((c) => `${c.abbr}.onmicrosoft.com`),
      clients.map((c) => demoApplicationId(c.tenantId)),
      clients.map(() => randomUUID()),
      `${ctx.config.publicUrl}/auth/callback`,
      endpoints.graphBaseUrl,
      endpoints.authorityHost,
      ctx.now(),
      clients.map(() => ctx.secrets.seal(ctx.config.demoClientSecret ?? randomBytes(24).toString('base64url'))),
    ],
  );
  await tx.query(
    'update workers w set stagingtenant_id = t.tenant_id from tenants t where t.organisation_id = w.organisation_id and t.tenant_id = any($1)',
    [tenantIds],
  );
  const primary = clients.map(() => randomUUID());
  const locations = clients.flatMap((c, k) => [
    [primary[k] ?? '', c.tenantId, 'Primary storage', `https://${c.abbr}.sharepoint.com/sites/compliance-backup`],
    [randomUUID(), c.tenantId, 'Archive storage', `https://${c.abbr}.sharepoint.com/sites/compliance-archive`],
  ]);
  await tx.query(
    `insert into locations (location_id, tenant_id, name, site_address, created_at)
     select *, $5::timestamptz from unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
    [
      locations.map((l) => l[0]),
      locations.map((l) => l[1]),
      locations.map((l) => l[2]),
      locations.map((l) => l[3]),
      ctx.now(),
    ],
  );
  await tx.query(
    `insert into backup_config (tenant_id, default_location_id, teams_configured, exchange_configured)
     select * , true, true from unnest($1::text[], $2::text[])`,
    [tenantIds, primary],
  );
}

/** Mailboxes of Contoso's simulated tenant whose archive the demo administrator may read. */
export const DEMO_PROXY_MAILBOXES = 2;

/**
 * eDiscovery shows a person the archived mail of their own mailbox and of those a proxy right gives
 * them. The demo administrator has no mailbox in Contoso's simulated tenant, so, as a compliance
 * officer would, they hold a right to the first mailboxes of the simulator's (deterministic) Contoso:
 * search, preview and case export show mail once an archive job has run, and the other mailboxes
 * show the rule that refuses what no right covers.
 */
async function grantDemoProxyRights(ctx: AppContext, tx: Queryable, adminId: string) {
  const mailboxes = buildTenant(contoso.tenantId, demoTenantSize(ctx.config, contoso.tenantId))
    .users.filter((u) => u.hasMailbox)
    .slice(0, DEMO_PROXY_MAILBOXES);
  for (const mailbox of mailboxes) {
    await tx.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind,
         principal_name, principal_email, granted_by, granted_at)
       values ($1, $2, $3, $4, $5, 'account', $6, $7, $8, $9)`,
      [
        randomUUID(),
        contoso.tenantId,
        mailbox.id,
        mailbox.displayName,
        `user:${adminId}`,
        'Contoso Administrator',
        DEMO_USERS.admin,
        'Demo set-up',
        ctx.now(),
      ],
    );
  }
}

/**
 * On an empty database, creates the demo world: Contoso (full licence) with its administrator, and
 * Fabrikam Partners with its partner user and three clients, one on trial, and as many more as
 * PORTAL_DEMO_CLIENTS asks. Returns null when the database already has organisations. `present` is
 * the demo's now, from which the drawn clients' trials count their days left (`ctx` may be at the
 * start of the demo's history).
 */
export async function seedDemo(
  ctx: AppContext,
  present: Date = ctx.now(),
): Promise<{ generatedPassword: string | undefined } | null> {
  const [existing] = await ctx.db.query<{ n: number }>('select count(*)::int as n from organisations');
  if ((existing?.n ?? 0) > 0) return null;
  const generatedPassword = ctx.config.demoPassword ? undefined : strongPassword();
  const password = ctx.config.demoPassword ?? generatedPassword ?? strongPassword();
  const problems = passwordProblems(password);
  if (problems.length > 0) ctx.log.warn({ problems }, 'PORTAL_DEMO_PASSWORD breaks the password rules');
  const passwordHash = await hashPassword(password);

  await ctx.db.transaction(async (tx) => {
    const contosoOrg = await addClient(ctx, tx, contoso, null);
    const adminId = randomUUID();
    await insertUser(tx, {
      id: adminId,
      email: DEMO_USERS.admin,
      displayName: 'Contoso Administrator',
      passwordHash,
      role: 'admin',
      organisationId: contosoOrg.id,
      emailConfirmed: true,
    });
    if (ctx.config.demo) {
      // Contoso signs in with Microsoft too, from its own tenant: the simulator is its identity platform.
      // Bound as the operator binds one (entra:reassign): whoever sets up the demo controls its simulator.
      await tx.query(
        `update organisations set entra_sign_in = true, entra_tenant_id = $2, entra_tenant_bound_at = $3,
           entra_tenant_proof = 'operator' where id = $1`,
        [contosoOrg.id, contoso.tenantId, ctx.now()],
      );
      await insertUser(tx, {
        id: randomUUID(),
        email: DEMO_USERS.microsoft,
        displayName: 'Adele Vance',
        passwordHash,
        role: 'admin',
        organisationId: contosoOrg.id,
        emailConfirmed: true,
      });
    }
    const { organisation: fabrikam } = await createOrganisation(tx, {
      name: 'Fabrikam Partners',
      kind: 'partner',
      license: 'full',
      abbr: 'fabrikam',
    });
    await insertUser(tx, {
      id: randomUUID(),
      email: DEMO_USERS.partner,
      displayName: 'Fabrikam Partner',
      passwordHash,
      role: 'partner',
      organisationId: fabrikam.id,
      emailConfirmed: true,
    });
    for (const client of partnerClients) await addClient(ctx, tx, client, fabrikam.id);
    await addFleetClients(ctx, tx, fabrikam.id, present);
    // The demo's administrators and its partner are eDiscovery managers: they place and release legal holds.
    await tx.query('update users set ediscovery_manager = true where email = any($1)', [Object.values(DEMO_USERS)]);
    if (ctx.config.demo) await grantDemoProxyRights(ctx, tx, adminId);
    await ctx.audit(
      { action: 'system.seed', outcome: 'success', details: { organisations: 5 + drawnClientCount(ctx.config) } },
      tx,
    );
  });
  return { generatedPassword };
}
