import { describe, expectTypeOf, it } from 'vitest';
import { defineResource } from '../src/core/endpoint.js';
import {
  type AccessTokenResponse,
  type AnyEndpoint,
  type ApiError,
  createClient,
  type DashboardSize,
  type DownloadResult,
  type EndpointArgs,
  type EndpointId,
  type EndpointMethod,
  type Job,
  type Page,
  type Tenant,
} from '../src/index.js';

const client = createClient({ origin: 'http://x' });
/** The argument object of an endpoint's method, without the request options it refuses by name. */
type ArgsOf<I extends EndpointId> = EndpointArgs<Extract<AnyEndpoint, { id: I }>>;

describe('typed methods', () => {
  it('derive arguments and results from the catalogue', () => {
    expectTypeOf<ArgsOf<'apollo.auth.login'>>().toEqualTypeOf<{
      query?: { useCookies?: boolean; useSessionCookies?: boolean };
      body: { email: string; password: string; twoFactorCode?: string; twoFactorRecoveryCode?: string };
    }>();
    expectTypeOf(client.apollo.auth.login).toEqualTypeOf<
      EndpointMethod<Extract<AnyEndpoint, { id: 'apollo.auth.login' }>>
    >();
    expectTypeOf(client.apollo.auth.login).parameter(0).toMatchTypeOf<ArgsOf<'apollo.auth.login'>>();
    expectTypeOf(client.apollo.auth.login).returns.resolves.toEqualTypeOf<AccessTokenResponse>();
    expectTypeOf(client.apollo.tenants.list).returns.resolves.toEqualTypeOf<Tenant[]>();
    expectTypeOf<ArgsOf<'apollo.jobs.get'>>().toEqualTypeOf<{ tenantId: string | number; jobId: string | number }>();
    expectTypeOf(client.apollo.jobs.get).parameter(0).toMatchTypeOf<ArgsOf<'apollo.jobs.get'>>();
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

  it('refuse request options in the argument object, where the runtime refuses them too', () => {
    const signal = new AbortController().signal;
    const options = { signal, timeoutMs: 10_000 };
    // Methods without arguments: their argument object was {}, which took any object.
    // @ts-expect-error request options go second
    client.apollo.tenants.list({ signal });
    // @ts-expect-error request options go second
    client.apollo.configuration.license({ timeoutMs: 5_000 });
    // @ts-expect-error request options go second
    client.legacy.auth.generateQr({ headers: { 'X-Trace': 'a' } });
    // @ts-expect-error request options go second, also as a variable
    client.apollo.tenants.list(options);
    // Spread among the arguments, where no literal check sees them.
    // @ts-expect-error request options go second
    client.apollo.jobs.get({ tenantId: 't', jobId: 'j', ...options });
    // @ts-expect-error request options go second
    client.apollo.audit.list({ query: { outcome: 'failure' }, ...options });
    // @ts-expect-error the iterators take them second as well
    client.apollo.jobs.list.items({ tenantId: 't', ...options });
    // @ts-expect-error a body with a request option beside it
    client.apollo.auth.login({ body: { email: 'a@b.c', password: 'p' }, maxRetries: 0 });
    // @ts-expect-error disableToast too
    client.legacy.workers.client({ disableToast: true });

    // Valid calls still compile: options second, arguments first, or nothing at all.
    client.apollo.tenants.list();
    client.apollo.tenants.list({});
    client.apollo.tenants.list(undefined, options);
    client.apollo.jobs.get({ tenantId: 't', jobId: 'j' }, options);
    client.apollo.audit.list({ query: { outcome: 'failure' } }, { signal, maxRetries: 0 });
    client.apollo.jobs.list.items({ tenantId: 't', query: { pageSize: 100 } }, { signal });
    client.apollo.jobs.list.pages({ tenantId: 't' }, options);
    client.legacy.auth.logout({ body: {} }, { disableToast: true });
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
