export declare const DEMO_PASSWORD: string;
export declare const DEMO_CLIENT_SECRET: string;
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}
export declare function startServer(options?: { dataDir?: string; webDir?: string }): Promise<RunningServer>;
