/** The languages the portal speaks: English (`en`, the default and the fallback) and German (`de`). */
export const LANGUAGES = ['en', 'de'] as const;

/**
 * A language of the user-facing messages: English (`en`, the default and the fallback) or German
 * (`de`).
 */
export type Language = (typeof LANGUAGES)[number];
