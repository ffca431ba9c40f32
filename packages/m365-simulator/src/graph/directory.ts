/**
 * The directory: the tenant's organization with its verified domains, users with their OneDrive,
 * SharePoint sites with their libraries, and groups with their sites.
 */
import { groupsOf, type SimGroup, type SimTenant, type SimUser } from '../model.js';
import { driveJson } from './drives.js';
import { graphError, type ListOptions, page, type SimResponse } from './odata.js';
import { type GraphCall, type GraphRoute, route } from './router.js';

/** A user by id or by user principal name, as Graph takes either. */
export const userOf = (tenant: SimTenant, key: string): SimUser | undefined =>
  tenant.users.find((u) => u.id === key || u.upn.toLowerCase() === key.toLowerCase());

/** The directory's not-found, naming what was asked. */
export const directoryNotFound = (key: string) =>
  graphError(
    404,
    'Request_ResourceNotFound',
    `Resource '${key}' does not exist or one of its queried reference-property objects are not present.`,
  );

/** Directory objects page up to 999 and take advanced queries only with ConsistencyLevel: eventual. */
const DIRECTORY: ListOptions = { directory: true, max: 999 };

/** A user's default properties, as Graph answers without $select. */
const userJson = (u: SimUser) => {
  const [givenName = u.displayName, ...rest] = u.displayName.split(' ');
  const guest = !u.hasMailbox;
  return {
    id: u.id,
    businessPhones: [],
    displayName: u.displayName,
    givenName: guest ? null : givenName,
    jobTitle: null,
    mail: u.hasMailbox ? u.upn : null,
    mobilePhone: null,
    officeLocation: null,
    preferredLanguage: guest ? null : 'en-US',
    surname: guest ? null : rest.join(' ') || null,
    userPrincipalName: u.upn,
  };
};

/**
 * The tenant's organization, as Graph answers it without $select: its id is the tenant id, and its one
 * verified domain the initial `….onmicrosoft.com` domain its accounts are in, which is also its
 * default (a simulated tenant adds no custom domain).
 */
const organizationJson = (tenant: SimTenant) => ({
  id: tenant.tenantId,
  deletedDateTime: null,
  businessPhones: [],
  city: null,
  country: null,
  countryLetterCode: null,
  createdDateTime: '2026-09-01T08:00:00Z',
  defaultUsageLocation: null,
  displayName: tenant.domain.split('.')[0] ?? tenant.domain,
  marketingNotificationEmails: [],
  onPremisesLastSyncDateTime: null,
  onPremisesSyncEnabled: null,
  postalCode: null,
  preferredLanguage: null,
  privacyProfile: null,
  securityComplianceNotificationMails: [],
  securityComplianceNotificationPhones: [],
  state: null,
  street: null,
  technicalNotificationMails: [],
  tenantType: 'AAD',
  assignedPlans: [],
  provisionedPlans: [],
  verifiedDomains: [
    {
      capabilities: 'Email, OfficeCommunicationsOnline',
      isDefault: true,
      isInitial: true,
      name: tenant.domain,
      type: 'Managed',
    },
  ],
});

const groupJson = (g: SimGroup) => ({
  id: g.id,
  createdDateTime: '2026-09-01T08:00:00Z',
  description: g.team ? `The ${g.displayName} team.` : 'Everyone with a mailbox.',
  displayName: g.displayName,
  groupTypes: g.team ? ['Unified'] : [],
  mail: g.mail,
  mailEnabled: true,
  mailNickname: g.mail.split('@')[0] ?? g.displayName,
  resourceProvisioningOptions: g.team ? ['Team'] : [],
  securityEnabled: !g.team,
  visibility: g.team ? 'Private' : null,
  proxyAddresses: [`SMTP:${g.mail}`],
  renewedDateTime: '2026-09-01T08:00:00Z',
  onPremisesSyncEnabled: null,
});

const siteJson = (tenant: SimTenant, s: SimTenant['sites'][number]) => ({
  id: s.id,
  name: s.webUrl.split('/').pop() ?? s.name,
  displayName: s.name,
  webUrl: s.webUrl,
  createdDateTime: '2026-09-01T08:00:00Z',
  lastModifiedDateTime: '2026-09-01T08:00:00Z',
  siteCollection: { hostname: `${tenant.domain.split('.')[0]}.sharepoint.com` },
});

/** A live site by id, or Graph's answer for one that is not (deleted sites are gone for Graph). */
function siteOf(call: GraphCall): SimTenant['sites'][number] | SimResponse {
  const site = call.tenant.sites.find((s) => s.id === call.params.site && !s.deleted);
  return site ?? graphError(404, 'itemNotFound', 'Requested site could not be found');
}

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value;

/** `/users/$count` and the like: a number as text, only with ConsistencyLevel: eventual. */
function countAnswer(call: GraphCall, n: number): SimResponse {
  if ((call.request.headers.consistencylevel ?? '').toLowerCase() !== 'eventual')
    return graphError(400, 'Request_BadRequest', '$count is not currently supported.');
  return { status: 200, headers: { 'content-type': 'text/plain' }, bytes: Buffer.from(String(n)) };
}

export const directoryRoutes: GraphRoute[] = [
  // A tenant has one organization: the list holds it, and it answers by its id (the tenant id).
  ...route('GET', 'organization', ({ context, request, tenant }) =>
    page(context, request, [tenant], organizationJson, DIRECTORY),
  ),
  ...route('GET', 'organization/:organization', ({ tenant, params }) =>
    params.organization?.toLowerCase() === tenant.tenantId.toLowerCase()
      ? { status: 200, json: organizationJson(tenant) }
      : directoryNotFound(params.organization ?? ''),
  ),
  ...route('GET', 'users', ({ context, request, tenant }) => page(context, request, tenant.users, userJson, DIRECTORY)),
  ...route('GET', 'users/$count', (call) => countAnswer(call, call.tenant.users.length)),
  ...route('GET', 'users/:user', ({ tenant, params }) => {
    const user = userOf(tenant, params.user ?? '');
    return user ? { status: 200, json: userJson(user) } : directoryNotFound(params.user ?? '');
  }),
  ...route('GET', 'users/:user/drive', ({ tenant, params }) => {
    const user = userOf(tenant, params.user ?? '');
    if (!user) return directoryNotFound(params.user ?? '');
    const drive = tenant.drives.get(user.driveId);
    return drive
      ? { status: 200, json: driveJson(tenant, drive) }
      : graphError(404, 'itemNotFound', 'The drive was not found.');
  }),
  ...route('GET', 'sites', ({ context, request, tenant }) =>
    page(
      context,
      request,
      tenant.sites.filter((s) => !s.deleted),
      (s) => siteJson(tenant, s),
    ),
  ),
  ...route('GET', 'sites/:site', (call) => {
    const site = siteOf(call);
    return isAnswer(site) ? site : { status: 200, json: siteJson(call.tenant, site) };
  }),
  ...route('GET', 'sites/:site/drive', (call) => {
    const site = siteOf(call);
    if (isAnswer(site)) return site;
    const drive = call.tenant.drives.get(site.driveIds[0] ?? '');
    return drive
      ? { status: 200, json: driveJson(call.tenant, drive) }
      : graphError(404, 'itemNotFound', 'The site has no library.');
  }),
  ...route('GET', 'sites/:site/drives', (call) => {
    const site = siteOf(call);
    if (isAnswer(site)) return site;
    const { context, request, tenant } = call;
    return page(
      context,
      request,
      site.driveIds.flatMap((id) => tenant.drives.get(id) ?? []),
      (drive) => driveJson(tenant, drive),
    );
  }),
  ...route('GET', 'groups', ({ context, request, tenant }) =>
    page(context, request, groupsOf(tenant), groupJson, DIRECTORY),
  ),
  ...route('GET', 'groups/$count', (call) => countAnswer(call, groupsOf(call.tenant).length)),
  ...route('GET', 'groups/:group', ({ tenant, params }) => {
    const group = groupsOf(tenant).find((g) => g.id === params.group);
    return group ? { status: 200, json: groupJson(group) } : directoryNotFound(params.group ?? '');
  }),
  ...route('GET', 'groups/:group/members', ({ context, request, tenant, params }) => {
    const group = groupsOf(tenant).find((g) => g.id === params.group);
    if (!group) return directoryNotFound(params.group ?? '');
    return page(
      context,
      request,
      group.members,
      (u) => ({ '@odata.type': '#microsoft.graph.user', ...userJson(u) }),
      DIRECTORY,
    );
  }),
  // A group's root site: a team's own SharePoint site (TenantSize.teamSites); other groups have none here.
  ...route('GET', 'groups/:group/sites/root', ({ tenant, params }) => {
    const group = groupsOf(tenant).find((g) => g.id === params.group);
    if (!group) return directoryNotFound(params.group ?? '');
    const site = tenant.sites.find((s) => s.teamId === group.id && !s.deleted);
    return site
      ? { status: 200, json: siteJson(tenant, site) }
      : graphError(404, 'itemNotFound', 'Requested site could not be found');
  }),
  ...route(
    'GET',
    'groups/:group/members/microsoft.graph.user',
    ({ context, request, tenant, params }) => {
      const group = groupsOf(tenant).find((g) => g.id === params.group);
      if (!group) return directoryNotFound(params.group ?? '');
      return page(context, request, group.members, userJson, DIRECTORY);
    },
    { context: 'users' },
  ),
  // How many of the group's members are users: text, only with ConsistencyLevel: eventual.
  ...route('GET', 'groups/:group/members/microsoft.graph.user/$count', (call) => {
    const group = groupsOf(call.tenant).find((g) => g.id === call.params.group);
    return group ? countAnswer(call, group.members.length) : directoryNotFound(call.params.group ?? '');
  }),
];
