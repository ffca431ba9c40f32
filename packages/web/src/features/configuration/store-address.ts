import type { StorageLocation } from '@compliance-portal/sdk';

/** Where a location's data is kept (the server's own store unless the location says otherwise). */
export type Store = NonNullable<StorageLocation['store']>;

const AZURE_HOST = /^([a-z0-9]{3,24})\.blob\.core\.windows\.net$/i;
/** Azure's rule for a container's name. */
const CONTAINER = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}$/;
/** S3's rule for a bucket's name (general purpose buckets). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** An S3-compatible service's endpoint: an http or https address without a path. */
const ENDPOINT = /^https?:\/\/[^/]+\/?$/;

/**
 * The store a site address selects, as the server reads it (SDK `LocationInput.siteAddress`), or null
 * when it is no address the server takes:
 * - `https://<account>.blob.core.windows.net/<container>[/<prefix>]`, or for an emulator
 *   `azure+http(s)://<host>:<port>/<account>/<container>[/<prefix>]`: Azure Blob Storage;
 * - `s3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>]`: S3;
 * - any other http or https address (a SharePoint site): the portal server's own store.
 */
export function storeOf(siteAddress: string): Store | null {
  let url: URL;
  try {
    url = new URL(siteAddress.trim());
  } catch {
    return null;
  }
  let segments: string[];
  try {
    segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (url.protocol === 's3:') {
    const endpoint = url.searchParams.get('endpoint');
    return BUCKET.test(url.hostname) && (endpoint === null || ENDPOINT.test(endpoint)) ? 's3' : null;
  }
  const emulator = /^azure\+https?:$/.test(url.protocol);
  if (emulator) {
    const [account, container] = segments;
    return url.hostname && account && container && CONTAINER.test(container) ? 'azureBlob' : null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!url.hostname) return null;
  if (url.protocol === 'https:' && AZURE_HOST.test(url.hostname)) {
    const [container] = segments;
    return container && CONTAINER.test(container) ? 'azureBlob' : null;
  }
  return 'server';
}
