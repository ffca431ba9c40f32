/** Legacy proxy rights: who may read which mailbox's archive, for accounts and distribution groups. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

export const ProxyPrincipal = s.object({
  principalId: s.string(),
  kind: s.oneOfStrings(['account', 'distributionGroup']),
  displayName: s.string(),
  email: s.string(),
});
export type ProxyPrincipal = s.Static<typeof ProxyPrincipal>;

export const ProxyRight = s.object({
  rightId: s.string(),
  mailboxId: s.string({ description: 'The archive that may be read.' }),
  mailboxName: s.string(),
  principal: ProxyPrincipal,
  grantedBy: s.string(),
  granted: s.dateTime(),
});
export type ProxyRight = s.Static<typeof ProxyRight>;

export const ProxyAccount = s.object({ principal: ProxyPrincipal, rights: s.array(ProxyRight) });
export type ProxyAccount = s.Static<typeof ProxyAccount>;

export const GrantProxyRights = s.object({
  workerIp: s.string({ minLength: 1 }),
  mailboxId: s.string({ minLength: 1 }),
  principalIds: s.array(s.string({ minLength: 1 }), { minItems: 1, uniqueItems: true }),
});
export type GrantProxyRights = s.Static<typeof GrantProxyRights>;

export const proxyRightsEndpoints = defineResource('legacy', 'proxyRights', {
  accounts: {
    method: 'GET',
    path: '/proxy-accounts',
    summary: 'Accounts and distribution groups that can hold proxy rights',
    query: s.object({ workerIp: s.string({ minLength: 1 }), search: s.optional(s.string({ maxLength: 200 })) }),
    response: s.array(ProxyPrincipal),
  },
  account: {
    method: 'GET',
    path: '/proxy-account',
    summary: 'One account or group with its rights',
    query: s.object({ workerIp: s.string({ minLength: 1 }), principalId: s.string({ minLength: 1 }) }),
    response: ProxyAccount,
  },
  list: {
    method: 'GET',
    path: '/proxy-rights',
    summary: 'All proxy rights',
    query: s.object({ workerIp: s.string({ minLength: 1 }), mailboxId: s.optional(s.string()) }),
    response: s.array(ProxyRight),
  },
  grant: {
    method: 'POST',
    path: '/proxy-rights',
    summary: 'Grant rights (refused for a principal that already holds them)',
    body: GrantProxyRights,
    response: s.array(ProxyRight),
    successStatus: 201,
    refusals: { 409: 'The principal already holds the right, or is the mailbox itself.' },
  },
  revoke: {
    method: 'DELETE',
    path: '/proxy-rights',
    summary: 'Revoke a right',
    query: s.object({ workerIp: s.string({ minLength: 1 }), rightId: s.string({ minLength: 1 }) }),
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function proxyRightsApi(transport: Transport) {
  return bindResource(transport, proxyRightsEndpoints);
}
