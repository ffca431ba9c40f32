/** Legacy proxy rights: who may read which mailbox's archive, for accounts and distribution groups. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

/** Schema of an account or distribution group that can hold proxy rights. */
export const ProxyPrincipal = s.object({
  principalId: s.string(),
  kind: s.oneOfStrings(['account', 'distributionGroup']),
  displayName: s.string(),
  email: s.string(),
});
/**
 * An account or distribution group of the tenant that can hold proxy rights, with its name and address.
 */
export type ProxyPrincipal = s.Static<typeof ProxyPrincipal>;

/** Schema of one proxy right, as `GET /proxy-rights` and `POST /proxy-rights` answer it. */
export const ProxyRight = s.object({
  rightId: s.string(),
  mailboxId: s.string({ description: 'The archive that may be read.' }),
  mailboxName: s.string(),
  principal: ProxyPrincipal,
  grantedBy: s.string(),
  granted: s.dateTime(),
});
/**
 * The right of an account or group to read one mailbox's archive (also in eDiscovery): the mailbox, the
 * holder, who granted it and when. `rightId` revokes it.
 */
export type ProxyRight = s.Static<typeof ProxyRight>;

/** Schema of the answer of `GET /proxy-account`. */
export const ProxyAccount = s.object({ principal: ProxyPrincipal, rights: s.array(ProxyRight) });
/** An account or distribution group with every proxy right it holds. */
export type ProxyAccount = s.Static<typeof ProxyAccount>;

/** Schema of the body of `POST /proxy-rights`. */
export const GrantProxyRights = s.object({
  workerIp: s.string({ minLength: 1 }),
  mailboxId: s.string({ minLength: 1 }),
  principalIds: s.array(s.string({ minLength: 1 }), { minItems: 1, uniqueItems: true }),
});
/**
 * Proxy rights to grant on one mailbox, to one or more accounts or groups. A holder that already has
 * the right, or the mailbox itself, is refused with 409.
 */
export type GrantProxyRights = s.Static<typeof GrantProxyRights>;

/**
 * The catalogue entries of legacy proxy rights: the accounts and groups that can hold them, one with
 * its rights, the rights, and grant and revoke. {@link proxyRightsApi} binds them.
 */
export const proxyRightsEndpoints = defineResource('legacy', 'proxyRights', {
  accounts: {
    method: 'GET',
    path: '/proxy-accounts',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'Accounts and distribution groups that can hold proxy rights',
    query: s.object({ workerIp: s.string({ minLength: 1 }), search: s.optional(s.string({ maxLength: 200 })) }),
    response: s.array(ProxyPrincipal),
  },
  account: {
    method: 'GET',
    path: '/proxy-account',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'One account or group with its rights',
    query: s.object({ workerIp: s.string({ minLength: 1 }), principalId: s.string({ minLength: 1 }) }),
    response: ProxyAccount,
  },
  list: {
    method: 'GET',
    path: '/proxy-rights',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'All proxy rights',
    query: s.object({ workerIp: s.string({ minLength: 1 }), mailboxId: s.optional(s.string()) }),
    response: s.array(ProxyRight),
  },
  grant: {
    method: 'POST',
    path: '/proxy-rights',
    scope: { workerTenant: { in: 'body', name: 'workerIp' } },
    summary: 'Grant rights (refused for a principal that already holds them)',
    body: GrantProxyRights,
    response: s.array(ProxyRight),
    successStatus: 201,
    refusals: { 409: 'The principal already holds the right, or is the mailbox itself.' },
  },
  revoke: {
    method: 'DELETE',
    path: '/proxy-rights',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'Revoke a right',
    query: s.object({ workerIp: s.string({ minLength: 1 }), rightId: s.string({ minLength: 1 }) }),
  },
});

/**
 * Binds legacy proxy rights to a transport: who may read which mailbox's archive, for accounts and
 * distribution groups. The same methods as `client.legacy.proxyRights`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function proxyRightsApi(transport: Transport) {
  return bindResource(transport, proxyRightsEndpoints);
}
