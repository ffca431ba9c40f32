/** Types of scripts/test-ports.mjs, for the packages' tests. */
export declare const RESERVED: string;
export declare function reservePort(port: number): boolean;
export declare function releasePort(port: number): void;
export declare function releasePorts(): void;
export declare function freePort(): Promise<number>;
