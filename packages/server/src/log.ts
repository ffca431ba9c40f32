/**
 * The server's logger: JSON lines through pino, with request URLs redacted, so that one-time codes,
 * reset tokens and other secrets a URL may carry never reach a log collector.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters whose values are secrets (compared without case). */
const SECRET_PARAMETERS = new Set([
  'code',
  'token',
  'resetcode',
  'refreshtoken',
  'password',
  'secret',
  'client_secret',
  'access_token',
  'key',
]);
/**
 * Path segments that are secrets: the tokens of reset and invitation links, in the API's paths and in
 * the PWA's pages they open.
 */
const SECRET_SEGMENTS = [/(\/(?:auth\/)?(?:reset-password|invitations?)\/)[^/?#]+/i];
const REDACTED = '[redacted]';

/** A URL (path and query) as it may be logged: secret query values and path segments replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  let path = at < 0 ? url : url.slice(0, at);
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, `$1${REDACTED}`);
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // A name that is not valid percent-encoding is compared as it is.
      }
      return SECRET_PARAMETERS.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer with the URL redacted. */
function request(req: LoggedRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url ?? ''),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, serializers: { req: request } }, destination);
}
