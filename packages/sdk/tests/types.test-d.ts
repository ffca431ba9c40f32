import { describe, expectTypeOf, it } from 'vitest';
import { defineResource } from '../src/core/endpoint.js';
import {
  type AccessTokenResponse,
  type ApiError,
  createClient,
  type DashboardSize,
  type DownloadResult,
  type EndpointId,
  type Job,
  type Page,
  type Tenant,
} from '../src/index.js';

const client = createClient({ origin: 'http://x' });

describe('typed methods', () => {
  it('derive arguments and results from the catalogue', () => {
    expectTypeOf(client.apollo.auth.login).parameter(0).toEqualTypeOf<{
      query?: { useCookies?: boolean; useSessionCookies?: boolean };
      body: { email: string; password: string; twoFactorCode?: string; twoFactorRecoveryCode?: string };
    }>();
    expectTypeOf(client.apollo.auth.login).returns.resolves.toEqualTypeOf<AccessTokenResponse>();
    expectTypeOf(client.apollo.tenants.list).returns.resolves.toEqualTypeOf<Tenant[]>();
    expectTypeOf(client.apollo.jobs.get)
      .parameter(0)
      .toEqualTypeOf<{ tenantId: string | number; jobId: string | number }>();
    expectTypeOf(client.apollo.jobs.list).returns.resolves.toMatchTypeOf<Page<Job>>();
    expectTypeOf(client.apollo.jobs.delete).returns.resolves.toEqualTypeOf<undefined>();
    expectTypeOf(client.legacy.files.download).returns.resolves.toEqualTypeOf<DownloadResult>();
    expectTypeOf(client.apollo.auth.confirmEmail).returns.resolves.toEqualTypeOf<string>();
  });

  it('give paged lists iterators over pages and items, and other methods none', () => {
    expectTypeOf(client.apollo.jobs.list.items).returns.toEqualTypeOf<AsyncIterableIterator<Job>>();
    expectTypeOf(client.apollo.jobs.list.pages).returns.toEqualTypeOf<AsyncIterableIterator<Page<Job>>>();
    expectTypeOf(client.apollo.jobs.list.items)
      .parameter(0)
      .toEqualTypeOf<Parameters<typeof client.apollo.jobs.list>[0]>();
    // @ts-expect-error the tenant list is not paged
    client.apollo.tenants.list.items();
  });

  it('refuse wrong arguments', () => {
    // @ts-expect-error the body is required
    client.apollo.auth.register({});
    // @ts-expect-error jobId is missing
    client.apollo.jobs.start({ tenantId: 't' });
    // @ts-expect-error not a dashboard view
    client.apollo.dashboards.application({ tenantId: 't', application: 'onedrive', view: 'weekly' });
    // @ts-expect-error not a document type
    client.legacy.files.documents({ abbr: 'x' }).then((files) => files[0]?.documentType === 'invoices');
  });

  it('type the dashboard family by view', () => {
    expectTypeOf(
      client.apollo.dashboards.application({ tenantId: 't', application: 'teams', view: 'size' }),
    ).resolves.toEqualTypeOf<DashboardSize>();
  });

  it('name every endpoint id', () => {
    expectTypeOf<'apollo.jobs.start'>().toMatchTypeOf<EndpointId>();
    expectTypeOf<'legacy.auth.signin'>().toMatchTypeOf<EndpointId>();
    // @ts-expect-error not an endpoint
    expectTypeOf<'apollo.jobs.fly'>().toMatchTypeOf<EndpointId>();
  });

  it('expose the error fields', () => {
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ApiError['disableToast']>().toEqualTypeOf<boolean>();
  });

  it('refuse a signed-in endpoint without its scope, and keep the declared scope', () => {
    const declared = defineResource('apollo', 'example', {
      // @ts-expect-error signed in (the default access) but no scope
      unscoped: { method: 'GET', path: '/example/{tenantId}', summary: 'Unscoped' },
      // @ts-expect-error a sign-in token's endpoint needs one too
      signin: { method: 'POST', path: '/example/signin', summary: 'Sign-in', access: 'signin' },
      scoped: { method: 'GET', path: '/example/{tenantId}/x', summary: 'Scoped', scope: { tenant: 'path' } },
      caller: { method: 'GET', path: '/example/own', summary: 'Own', scope: 'caller' },
      public: { method: 'GET', path: '/example/public', summary: 'Public', access: 'public' },
      linked: { method: 'GET', path: '/example/link', summary: 'Link', auth: 'none' },
    });
    expectTypeOf(declared.scoped.scope).toMatchTypeOf<{ readonly tenant: 'path' }>();
    expectTypeOf(declared.caller.scope).toMatchTypeOf<'caller'>();
    expectTypeOf(declared.public.scope).toEqualTypeOf<undefined>();
  });
});
