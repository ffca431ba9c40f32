/** Types of scripts/demo-portal.mjs, for the package's tests. */
export declare const DEMO_ADMIN: string;
export declare const DEMO_PARTNER: string;
/** The current 30-second step of RFC 6238. */
export declare function currentStep(): number;
/** RFC 6238 code of a base32 key at a 30-second step, as an authenticator app computes it. */
export declare function totpAt(base32Key: string, step: number): string;
/** A running demo portal; `stop()` ends it and removes its data directory. */
export interface DemoPortal {
  /** The origin, `http://127.0.0.1:<port>`. */
  url: string;
  apiKey: string;
  /** The password of every demo account. */
  password: string;
  dataDir: string;
  stop(): Promise<void>;
}
export declare function startDemoPortal(prefix?: string): Promise<DemoPortal>;
/** An account's first sign-in: password, then the QR setup confirmed with a code. */
export declare function enrol(
  client: unknown,
  email: string,
  password: string,
): Promise<{ key: string; token: string }>;
/** Ends a run's portal and programs with the run (signals, then exit). */
export declare function stopWithProcess(
  label: string,
  stopAll: () => Promise<void>,
  children: Set<{ kill(signal: string): unknown }>,
): void;
