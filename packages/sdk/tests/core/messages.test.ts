import { describe, expect, it } from 'vitest';
import {
  ApiError,
  apiErrorFor,
  errorMessage,
  errorMessages,
  errorTexts,
  type Language,
  MICROSOFT365_FAILURE_CODES,
  microsoft365FailureOf,
} from '../../src/index.js';

const ctx = { method: 'GET', url: 'http://x/api/a', disableToast: false };

describe('errorMessage: mapping by status', () => {
  const rows: [number, string, string][] = [
    [400, 'Invalid request', 'Ungültige Anfrage'],
    [401, 'Unauthorized', 'Nicht autorisiert'],
    [403, 'Access denied', 'Zugriff verweigert'],
    [404, 'Resource not found', 'Ressource nicht gefunden'],
    [500, 'Internal server error', 'Interner Serverfehler'],
    [
      409,
      'An error occurred, please try again later',
      'Ein Fehler ist aufgetreten, bitte versuchen Sie es später erneut',
    ],
    [
      502,
      'An error occurred, please try again later',
      'Ein Fehler ist aufgetreten, bitte versuchen Sie es später erneut',
    ],
  ];
  it.each(rows)('%i', (status, en, de) => {
    expect(errorMessage(status).message).toBe(en);
    expect(errorMessage(status, 'en').message).toBe(en);
    expect(errorMessage(status, 'de').message).toBe(de);
  });
});

describe('errorMessage: mapping by text', () => {
  const rows: [string, string, string, string][] = [
    ['Failed to fetch data', 'failedToRetrieveData', 'Failed to retrieve data', 'Daten konnten nicht abgerufen werden'],
    ['Invalid credentials.', 'invalidCredentials', 'Invalid Credentials', 'Ungültige Anmeldedaten'],
    [
      'Login verification failed!',
      'loginVerificationFailed',
      'Login verification failed',
      'Anmeldeüberprüfung fehlgeschlagen',
    ],
    [
      'Request failed with status code 404',
      'requestFailed404',
      'The requested resource could not be found (404)',
      'Die angeforderte Ressource wurde nicht gefunden (404)',
    ],
    [
      'Request failed with status code 400',
      'requestFailed400',
      'The server could not process the request (400)',
      'Der Server konnte die Anfrage nicht verarbeiten (400)',
    ],
    [
      'Request timeout',
      'requestTimeout',
      'The request took too long and was cancelled',
      'Die Anfrage hat zu lange gedauert und wurde abgebrochen',
    ],
    [
      'Invalid verification code.',
      'invalidVerificationCode',
      'Invalid Verification Code',
      'Ungültiger Bestätigungscode',
    ],
    ['User does not exist!', 'userDoesNotExist', 'User Does Not Exist', 'Benutzer existiert nicht'],
  ];
  it.each(rows)('%s', (text, key, en, de) => {
    expect(errorMessage(text)).toEqual({ key, message: en });
    expect(errorMessage(text, 'de')).toEqual({ key, message: de });
  });

  it('gives the generic message for any other text', () => {
    expect(errorMessage('Something odd')).toEqual({
      key: 'generic',
      message: 'An error occurred, please try again later',
    });
    expect(errorMessage('invalid credentials')).toMatchObject({ key: 'generic' });
    expect(errorMessage('Something odd', 'de').message).toBe(
      'Ein Fehler ist aufgetreten, bitte versuchen Sie es später erneut',
    );
  });

  it('gives Unknown error for no input', () => {
    expect(errorMessage()).toEqual({ key: 'unknown', message: 'Unknown error' });
    expect(errorMessage(null, 'de')).toEqual({ key: 'unknown', message: 'Unbekannter Fehler' });
    expect(errorMessage('')).toMatchObject({ key: 'unknown' });
    expect(errorMessage({})).toMatchObject({ key: 'unknown' });
  });
});

describe('errorMessage: error objects', () => {
  it('prefers a listed text over the status', () => {
    const error = new ApiError(401, { message: 'Invalid credentials.' }, ctx);
    expect(errorMessage(error)).toEqual({ key: 'invalidCredentials', message: 'Invalid Credentials' });
    expect(error.messageKey).toBe('invalidCredentials');
  });

  it('falls back to the status when the text is not listed', () => {
    expect(errorMessage(new ApiError(403, { message: 'Nope' }, ctx)).key).toBe('forbidden');
    expect(errorMessage({ status: 500, message: 'boom' }, 'de').message).toBe('Interner Serverfehler');
  });

  it('maps an error with a text and no status to the generic message', () => {
    expect(errorMessage(new Error('weird')).key).toBe('generic');
  });
});

describe('ApiError message precedence', () => {
  it('takes the body message first', () => {
    expect(new ApiError(400, { message: 'From message', title: 'From title' }, ctx).message).toBe('From message');
  });
  it('then the body title (ProblemDetails)', () => {
    expect(new ApiError(400, { title: 'Bad Request', status: 400 }, ctx).message).toBe('Bad Request');
  });
  it("then the error's own text, which maps by text", () => {
    const error = new ApiError(404, undefined, ctx);
    expect(error.message).toBe('Request failed with status code 404');
    expect(error.messageKey).toBe('requestFailed404');
    expect(new ApiError(418, 'teapot', ctx).message).toBe('Request failed with status code 418');
  });
});

describe('the catalogue', () => {
  it('has English and German for every key', () => {
    for (const [key, texts] of Object.entries(errorMessages)) {
      for (const lang of ['en', 'de'] as Language[]) expect(texts[lang], `${key}.${lang}`).toMatch(/\S/);
      expect(texts.en).not.toBe(texts.de);
    }
  });
});

describe("the reference server's trial refusals", () => {
  it('map to their own translated messages, whatever application they name', () => {
    const refusal = (message: string) => new ApiError(403, { message }, ctx);
    const jobs = refusal('Your trial licence allows one backup job per application; sharepoint already has one.');
    expect(jobs.messageKey).toBe('trialBackupJobs');
    expect(errorMessage(jobs, 'de').message).toBe(
      'Ihre Testlizenz erlaubt einen Sicherungsauftrag pro Anwendung, und diese Anwendung hat bereits einen.',
    );
    expect(refusal('Your trial licence allows at most 10 accounts, sites or teams per backup.').messageKey).toBe(
      'trialSources',
    );
    expect(
      refusal('Your trial licence allows at most 10 restores per application; onedrive has reached it.').messageKey,
    ).toBe('trialRestores');
    expect(refusal('Backup jobs cannot be deleted on a trial licence.').messageKey).toBe('trialNoDelete');
    expect(refusal('Your trial licence is great').messageKey).toBe('forbidden');
  });
});

describe('a failure of Microsoft 365 behind a call', () => {
  it('gives each cause its own message, in English as the server words it and in German', () => {
    const seen = new Set<string>();
    for (const code of MICROSOFT365_FAILURE_CODES) {
      const error = apiErrorFor(502, { title: 'Bad Gateway', message: errorTexts[code](), code }, ctx);
      expect(error.messageKey, code).toBe(code);
      expect(errorMessage(error).message, code).toBe(errorTexts[code]());
      const german = errorMessage(error, 'de').message;
      expect(german, code).not.toBe(errorTexts[code]());
      seen.add(german);
    }
    expect(seen.size).toBe(MICROSOFT365_FAILURE_CODES.length);
  });

  it("reads the cause and Microsoft's details from the error body, and nothing from another refusal", () => {
    const microsoft365 = { code: 'm365SecretExpired', status: 401, aadsts: 'AADSTS7000222', correlationId: 'c-1' };
    const error = apiErrorFor(502, { title: 'Bad Gateway', code: 'm365SecretExpired', microsoft365 }, ctx);
    expect(microsoft365FailureOf(error)).toEqual(microsoft365);
    expect(microsoft365FailureOf({ microsoft365 })).toEqual(microsoft365);
    expect(microsoft365FailureOf(apiErrorFor(502, { title: 'Bad Gateway', detail: 'Failed to fetch data' }, ctx))).toBe(
      undefined,
    );
    expect(microsoft365FailureOf(apiErrorFor(502, { microsoft365: { code: 'somethingElse' } }, ctx))).toBe(undefined);
    expect(microsoft365FailureOf(new Error('offline'))).toBe(undefined);
  });
});
