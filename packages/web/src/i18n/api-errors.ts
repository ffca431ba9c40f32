/**
 * The SDK's error catalogue in one language as the `apiErrors` namespace, for whoever has every
 * language at hand (the prerendered sign-in page, tests); the app itself takes English with its first
 * screen and German with the rest of German (index.ts).
 */
import { englishErrorMessages, germanErrorMessages, type Language } from '@compliance-portal/sdk';

export function apiErrors(lang: Language): Record<string, string> {
  return { ...(lang === 'de' ? germanErrorMessages : englishErrorMessages) };
}
