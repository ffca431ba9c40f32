export declare const DEMO_PASSWORD: string;
export declare const DEMO_CLIENT_SECRET: string;
export interface RunningSimulator {
  /** The demo simulator's https origin. */
  url: string;
  /** The CA certificate its certificate chains to. */
  caCertificatePath: string;
}
export interface RunningServer {
  url: string;
  /** The demo simulator (none answers there outside demo mode). */
  simulator: RunningSimulator;
  /** The server's data directory (its mail outbox is `outbox/`). */
  dataDir: string;
  stop(): Promise<void>;
}
export declare function simulatorOf(url: string): RunningSimulator | undefined;
export declare function startServer(options?: {
  dataDir?: string;
  webDir?: string;
  /** The demo world with its thirty days of history, as `pnpm start` makes it (default off). */
  history?: boolean;
  /** false: an empty portal outside demo mode (PORTAL_DEMO=off, its own secret key), as an operator starts one. */
  demo?: boolean;
  /** More of the server's environment. */
  env?: Record<string, string>;
}): Promise<RunningServer>;
export interface RunningAzurite {
  port: number;
  /** The development account's shared key. */
  accountKey: string;
  /** A container's URL there: http://127.0.0.1:<port>/devstoreaccount1/<name>. */
  containerUrl(name: string): string;
  stop(): Promise<void>;
}
export declare function startAzurite(): Promise<RunningAzurite>;
