import { ApiError, NetworkError, TimeoutError } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { handleApiError } from './api-errors';

const texts = { noTenant: 'No Tenant was found in the Configuration. Please configure one.', network: 'network!' };
const ctx = (url: string, disableToast = false) => ({ method: 'GET', url, disableToast });

function run(error: Parameters<typeof handleApiError>[0], lang: 'en' | 'de' = 'en') {
  const log: string[] = [];
  handleApiError(
    error,
    { dismissAll: () => log.push('dismiss'), show: (kind, message) => log.push(`${kind}:${message}`) },
    texts,
    lang,
  );
  return log;
}

describe('section 8 response handling', () => {
  it('dismisses all toasts first, every time', () => {
    expect(run(new ApiError(404, undefined, ctx('http://x/apollo-beta/api/Tenants/t', true)))).toEqual(['dismiss']);
  });

  it('warns about a missing tenant on 404 unless toasts are off', () => {
    expect(run(new ApiError(404, { title: 'Not Found' }, ctx('http://x/apollo-beta/api/t/jobs')))).toEqual([
      'dismiss',
      `warning:${texts.noTenant}`,
    ]);
  });

  it('warns about network errors', () => {
    expect(run(new NetworkError(ctx('http://x/api/client')))).toEqual(['dismiss', 'warning:network!']);
  });

  it('shows the translated message of a 4xx', () => {
    expect(run(new ApiError(400, { message: 'Invalid credentials.' }, ctx('http://x/api/auth/signin')))).toEqual([
      'dismiss',
      'error:Invalid Credentials',
    ]);
    expect(run(new ApiError(403, { message: 'Nope' }, ctx('http://x/api/partners-list')), 'de')).toEqual([
      'dismiss',
      'error:Zugriff verweigert',
    ]);
    expect(run(new ApiError(400, { message: 'x' }, ctx('http://x/api/a', true)))).toEqual(['dismiss']);
  });

  it('leaves a non-legacy 401 to the session, but shows a legacy one', () => {
    expect(run(new ApiError(401, undefined, ctx('http://x/apollo-beta/api/Tenants')))).toEqual(['dismiss']);
    expect(run(new ApiError(401, { message: 'Unauthorized' }, ctx('http://x/api/client')))).toEqual([
      'dismiss',
      'error:Unauthorized',
    ]);
  });

  it('shows timeouts and server errors', () => {
    expect(run(new TimeoutError(ctx('http://x/api/client'), 10))).toEqual([
      'dismiss',
      'error:The request took too long and was cancelled',
    ]);
    expect(run(new ApiError(500, undefined, ctx('http://x/api/client')))).toEqual([
      'dismiss',
      'error:Internal server error',
    ]);
  });
});
