declare const __APP_VERSION__: string | undefined;

/** The build's version (package version plus build time), set by vite.config.ts; "dev" in tests. */
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';
