import { HttpResponse, type HttpResponseResolver, type PathParams } from 'msw';
import { describe, expectTypeOf, it } from 'vitest';
import type { DownloadResult, Job, NotificationSettings, Page, Tenant } from '../src/index.js';
import {
  type EndpointResolver,
  type ResolverParams,
  type ResolverRequestBody,
  type ResolverResponseBody,
  type RespondBody,
  refuse,
  respond,
  type TypedResolvers,
} from '../src/testing/index.js';

const tenant: Tenant = {
  tenantId: '00000000-0000-0000-0000-000000000001',
  tenantName: 'Contoso',
  applicationId: '00000000-0000-0000-0000-000000000002',
  objectId: '00000000-0000-0000-0000-000000000003',
  redirectUri: 'https://portal.test/auth',
  organisationId: 'o1',
  hasClientSecret: true,
  isActive: true,
  provisioning: 'provisioned',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('typed resolvers', () => {
  it("answer an endpoint's result, read its body and name its path parameters", () => {
    expectTypeOf<ResolverResponseBody<'apollo.tenants.list'>>().toEqualTypeOf<Tenant[]>();
    expectTypeOf<ResolverResponseBody<'apollo.jobs.list'>>().toEqualTypeOf<Page<Job>>();
    expectTypeOf<ResolverResponseBody<'apollo.auth.confirmEmail'>>().toEqualTypeOf<string>();
    expectTypeOf<ResolverResponseBody<'apollo.jobs.delete'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResolverResponseBody<'legacy.files.download'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResolverRequestBody<'legacy.user.updateNotifications'>>().toEqualTypeOf<NotificationSettings>();
    expectTypeOf<ResolverParams<'apollo.jobs.get'>>().toEqualTypeOf<PathParams<'tenantId' | 'jobId'>>();
    expectTypeOf<keyof ResolverParams<'apollo.tenants.list'>>().toEqualTypeOf<never>();
  });

  it("are MSW's HttpResponseResolver of those types", () => {
    expectTypeOf<EndpointResolver<'apollo.jobs.get'>>().toExtend<
      HttpResponseResolver<
        ResolverParams<'apollo.jobs.get'>,
        ResolverRequestBody<'apollo.jobs.get'>,
        ResolverResponseBody<'apollo.jobs.get'>
      >
    >();
  });

  it('accept the right body, an error through refuse, and any answer of an empty endpoint', () => {
    const resolvers: TypedResolvers = {
      'apollo.tenants.list': () => HttpResponse.json([tenant]),
      'apollo.tenants.get': ({ params }) =>
        params.tenantId === tenant.tenantId ? HttpResponse.json(tenant) : refuse(404, { title: 'Not Found' }),
      'legacy.user.updateNotifications': async ({ request }) => {
        const body = await request.json();
        expectTypeOf(body).toEqualTypeOf<NotificationSettings>();
        return HttpResponse.json(body);
      },
      'apollo.auth.confirmEmail': () => HttpResponse.text('Thank you.'),
      'apollo.jobs.delete': () => new HttpResponse(null, { status: 204 }),
      'legacy.files.download': () => new Response(new Blob(['%PDF'])),
    };
    expectTypeOf(resolvers).toEqualTypeOf<TypedResolvers>();
  });

  it('refuse a wrong body shape, a wrong text, an unknown path parameter and a plain Response', () => {
    const resolvers: TypedResolvers = {
      // @ts-expect-error a tenant list answered with one tenant
      'apollo.tenants.list': () => HttpResponse.json(tenant),
      // @ts-expect-error a tenant without its name
      'apollo.tenants.get': () => HttpResponse.json({ ...tenant, tenantName: undefined }),
      'apollo.jobs.list': () =>
        // @ts-expect-error a page without its total
        HttpResponse.json({ items: [], page: 1, pageSize: 25 }),
      // @ts-expect-error a text endpoint answered with JSON
      'apollo.auth.confirmEmail': () => HttpResponse.json({ message: 'Thank you.' }),
      // @ts-expect-error no jobId in the tenant's path
      'apollo.tenants.update': ({ params }) => HttpResponse.json({ ...tenant, tenantId: params.jobId as string }),
      'legacy.user.updateNotifications': async ({ request }) => {
        // @ts-expect-error not a notification setting
        (await request.json()).jobStarted;
        return undefined;
      },
      // @ts-expect-error a plain Response escapes the check, so a JSON endpoint takes none
      'apollo.jobs.get': () => new Response('{}'),
    };
    expectTypeOf(resolvers).toEqualTypeOf<TypedResolvers>();
  });
});

describe('respond', () => {
  it("takes the endpoint's result, text, bytes or nothing", () => {
    expectTypeOf(respond('apollo.tenants.list', [tenant])).toEqualTypeOf<EndpointResolver<'apollo.tenants.list'>>();
    respond('apollo.auth.confirmEmail', 'Thank you.');
    respond('legacy.files.download', new Blob(['%PDF']), { headers: { 'Content-Disposition': 'attachment' } });
    respond('apollo.jobs.delete');
    respond('apollo.jobs.delete', undefined, { status: 204 });
    expectTypeOf<RespondBody<'legacy.files.download'>>().not.toEqualTypeOf<DownloadResult>();
  });

  it('refuses a wrong body for the id', () => {
    // @ts-expect-error a tenant list answered with one tenant
    respond('apollo.tenants.list', tenant);
    // @ts-expect-error not a provisioning state
    respond('apollo.tenants.list', [{ ...tenant, provisioning: 'done' }]);
    // @ts-expect-error an unknown member
    respond('apollo.tenants.get', { ...tenant, tenantColour: 'blue' });
    // @ts-expect-error a text endpoint answers a string
    respond('apollo.auth.confirmEmail', { message: 'Thank you.' });
    // @ts-expect-error an empty endpoint answers nothing
    respond('apollo.jobs.delete', { deleted: true });
    // @ts-expect-error the body is required
    respond('apollo.tenants.list');
    // @ts-expect-error not an endpoint
    respond('apollo.jobs.fly', []);
  });
});

describe('refuse', () => {
  it('takes problem details, a legacy message, a text or nothing', () => {
    refuse(404, { title: 'Not Found', status: 404, detail: 'No such job.' });
    refuse(400, { title: 'Bad Request', errors: { name: ['Required.'] } });
    refuse(409, { message: 'Taken.', code: 'duplicate' });
    refuse(503, 'Down for maintenance');
    refuse(500);
    // @ts-expect-error a problem's status is a number
    refuse(404, { title: 'Not Found', status: '404' });
    expectTypeOf(refuse(404)).toEqualTypeOf<HttpResponse<never>>();
  });
});
