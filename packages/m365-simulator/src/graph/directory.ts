/** The directory: users with their OneDrive, SharePoint sites with their libraries, and groups. */
import { groupsOf, type SimDrive, type SimTenant, type SimUser } from '../model.js';
import { notFound, page } from './odata.js';
import { type GraphRoute, route } from './router.js';

/** A user by id or by user principal name, as Graph takes either. */
export const userOf = (tenant: SimTenant, key: string): SimUser | undefined =>
  tenant.users.find((u) => u.id === key || u.upn.toLowerCase() === key.toLowerCase());

/** What a drive takes, as SharePoint counts it: every version of every live file. */
export function quota(drive: SimDrive | undefined) {
  let used = 0;
  for (const item of drive?.items.values() ?? [])
    if (!item.deleted && item.kind === 'file') for (const v of item.versions) used += v.size;
  return { used, total: 1024 ** 4, remaining: 1024 ** 4 - used };
}

const userJson = (u: SimUser) => ({
  id: u.id,
  userPrincipalName: u.upn,
  displayName: u.displayName,
  mail: u.hasMailbox ? u.upn : null,
});

export const directoryRoutes: GraphRoute[] = [
  ...route('GET', 'users', ({ context, request, tenant }) => page(context, request, tenant.users, userJson)),
  ...route('GET', 'users/:user/drive', ({ tenant, params }) => {
    const user = userOf(tenant, params.user ?? '');
    const drive = user && tenant.drives.get(user.driveId);
    return drive
      ? {
          status: 200,
          json: {
            id: drive.id,
            name: drive.name,
            driveType: 'business',
            owner: { user: { id: user.id } },
            quota: quota(drive),
          },
        }
      : notFound();
  }),
  ...route('GET', 'sites', ({ context, request, tenant }) =>
    page(
      context,
      request,
      tenant.sites.filter((s) => !s.deleted),
      (s) => ({ id: s.id, name: s.name, displayName: s.name, webUrl: s.webUrl }),
    ),
  ),
  ...route('GET', 'sites/:site/drives', ({ context, request, tenant, params }) => {
    const site = tenant.sites.find((s) => s.id === params.site && !s.deleted);
    if (!site) return notFound('The site was not found or has been deleted.');
    return page(context, request, site.driveIds, (id) => ({
      id,
      name: 'Documents',
      driveType: 'documentLibrary',
      quota: quota(tenant.drives.get(id)),
    }));
  }),
  ...route('GET', 'groups', ({ context, request, tenant }) => {
    const teamsOnly = (request.query.get('$filter') ?? '').includes('resourceProvisioningOptions');
    return page(
      context,
      request,
      groupsOf(tenant).filter((g) => !teamsOnly || g.team),
      (g) => ({
        id: g.id,
        displayName: g.displayName,
        mail: g.mail,
        groupTypes: g.team ? ['Unified'] : [],
        mailEnabled: true,
        securityEnabled: !g.team,
        resourceProvisioningOptions: g.team ? ['Team'] : [],
      }),
    );
  }),
  ...route(
    'GET',
    ['groups/:group/members', 'groups/:group/members/microsoft.graph.user'],
    ({ context, request, tenant, params }) => {
      const group = groupsOf(tenant).find((g) => g.id === params.group);
      if (!group) return notFound();
      return page(context, request, group.members, (u) => ({ '@odata.type': '#microsoft.graph.user', ...userJson(u) }));
    },
  ),
];
