import type { Browser, Page } from 'playwright-core';

export declare const CHROMIUM_FLAGS: readonly string[];
export declare function launchBrowser(): Promise<Browser>;
export declare function totpAt(key: string, step: number): string;
export declare class Authenticator {
  readonly key: string;
  constructor(key: string);
  nextCode(): Promise<string>;
}
export declare function submitPassword(page: Page, email: string, password: string): Promise<void>;
export declare function typePassword(page: Page, email: string, password: string): Promise<void>;
export declare function openSignInWhileLoading(page: Page, run: number, cpu: number): Promise<void>;
export declare function completeQrSetup(
  page: Page,
  onRecoveryCodes?: () => Promise<void>,
): Promise<{ authenticator: Authenticator; recoveryCodes: string[] }>;
export declare function submitCode(page: Page, authenticator: Authenticator): Promise<void>;
