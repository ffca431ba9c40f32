/**
 * The browser, operating system and kind of device a User-Agent header names, as far as it says: the
 * sessions list shows "Firefox 128 on Windows" rather than the header. Browsers that build on another's
 * engine name it too (Edge says Chrome, Chrome says Safari), so the more particular names are tried
 * first. Windows and macOS versions are left out: browsers have frozen them ("Windows NT 10.0" on
 * Windows 11, "Mac OS X 10_15_7" on every macOS since), so they would mislead.
 */
import type { SessionDevice } from '@compliance-portal/sdk';

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|OPiOS)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)/, 'Chrome Headless'],
  [/\bChromium\/(\d+)/, 'Chromium'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\bChrome\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)(?:\.\d+)*.*\bSafari\//, 'Safari'],
  [/\b(?:MSIE |Trident\/.*rv:)(\d+)/, 'Internet Explorer'],
];

function browserOf(agent: string): string | null {
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(agent);
    if (match) return `${name} ${match[1]}`;
  }
  // Not a browser: a program that names itself first ("curl/8.5.0", "node"), as it says.
  const program = /^([A-Za-z][\w.-]{0,40})(?:\/(\d+))?/.exec(agent);
  if (program && program[1] !== 'Mozilla') return program[2] ? `${program[1]} ${program[2]}` : (program[1] ?? null);
  return null;
}

function systemOf(agent: string): Pick<SessionDevice, 'os' | 'type'> {
  const ios = /\b(iPhone|iPod|iPad)\b.*? OS (\d+)(?:_(\d+))?/.exec(agent);
  if (ios) {
    const version = ios[3] && ios[3] !== '0' ? `${ios[2]}.${ios[3]}` : ios[2];
    return ios[1] === 'iPad' ? { os: `iPadOS ${version}`, type: 'tablet' } : { os: `iOS ${version}`, type: 'mobile' };
  }
  const android = /\bAndroid (\d+(?:\.\d+)?)/.exec(agent);
  if (android) return { os: `Android ${android[1]}`, type: /\bMobile\b/.test(agent) ? 'mobile' : 'tablet' };
  if (/\bWindows Phone\b/.test(agent)) return { os: 'Windows Phone', type: 'mobile' };
  if (/\bWindows\b/.test(agent)) return { os: 'Windows', type: 'desktop' };
  if (/\bCrOS\b/.test(agent)) return { os: 'ChromeOS', type: 'desktop' };
  if (/\bMac OS X\b|\bMacintosh\b/.test(agent)) return { os: 'macOS', type: 'desktop' };
  if (/\bLinux\b|\bX11\b/.test(agent)) return { os: 'Linux', type: 'desktop' };
  return { os: null, type: 'unknown' };
}

/** What a stored user agent says of the browser, system and device; all unknown without one. */
export function parseUserAgent(agent: string | null): SessionDevice {
  if (!agent) return { browser: null, os: null, type: 'unknown' };
  return { browser: browserOf(agent), ...systemOf(agent) };
}
