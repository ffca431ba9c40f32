import { describe, expect, it } from 'vitest';
import { loadAppConfig } from './api';

const served = { apiKey: 'key', environment: 'production', selfRegistration: 'open', supportEmail: 'ops@x.example' };
const answering = (body: unknown, calls: string[] = []) =>
  (async (url: string) => {
    calls.push(url);
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
const holder = globalThis as { portalAppConfig?: Promise<unknown> };

describe("the server's configuration for the PWA", () => {
  it('is asked for, says whether sign-up is open and whom to ask, and is kept for offline starts', async () => {
    const calls: string[] = [];
    expect(await loadAppConfig(answering(served, calls))).toEqual(served);
    expect(calls).toEqual(['/app-config.json']);
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await loadAppConfig(offline)).toEqual(served);
  });

  it("takes the boot script's answer when there is one, once, and asks itself when that failed", async () => {
    const calls: string[] = [];
    holder.portalAppConfig = Promise.resolve({ ...served, selfRegistration: 'closed' });
    expect((await loadAppConfig(answering(served, calls))).selfRegistration).toBe('closed');
    expect(calls).toEqual([]);
    expect(holder.portalAppConfig).toBeUndefined();
    holder.portalAppConfig = Promise.reject(new Error('app-config.json answered 503'));
    expect((await loadAppConfig(answering(served, calls))).selfRegistration).toBe('open');
    expect(calls).toEqual(['/app-config.json']);
  });

  it('offers no sign-up when a server does not say (one from before the setting)', async () => {
    expect(await loadAppConfig(answering({ apiKey: 'key', environment: 'production' }))).toEqual({
      apiKey: 'key',
      environment: 'production',
      selfRegistration: 'closed',
      supportEmail: '',
    });
  });
});
