import { describe, expect, it } from 'vitest';
import { createI18n, loadLanguage } from '../../i18n';
import { firstProblem, isDate, isDateTime, isWebAddress, parseNumber, rules, validationMessage } from './validation';

/** The message a user reads for `problem` in `language`. */
async function reads(language: 'en' | 'de') {
  const i18n = createI18n(language);
  await loadLanguage(i18n, language);
  return (problem: ReturnType<typeof firstProblem>) => (problem ? validationMessage(i18n.t, problem) : null);
}

describe('the forms’ validation rules give the specification’s generic messages', () => {
  it('fills in the value, in English and German', async () => {
    const en = await reads('en');
    const de = await reads('de');
    const cases: [ReturnType<typeof firstProblem>, string, string][] = [
      [firstProblem('  ', rules.required()), 'Field must not be empty.', 'Das Feld darf nicht leer sein.'],
      [
        firstProblem('a', rules.minLength(2)),
        'Value too short (2 characters minimum).',
        'Wert zu kurz (mindestens 2 Zeichen).',
      ],
      [
        firstProblem('abcd', rules.maxLength(3)),
        'Value too long (at most 3 characters).',
        'Wert zu lang (höchstens 3 Zeichen).',
      ],
      [
        firstProblem('x-1', rules.pattern(/^\d+$/)),
        'Value does not match the required pattern.',
        'Der Wert entspricht nicht dem geforderten Muster.',
      ],
      [firstProblem('a@b', rules.email()), 'Invalid email.', 'Ungültige E-Mail-Adresse.'],
      [
        firstProblem(new Set(), rules.minItems()),
        'At least one item must be selected.',
        'Mindestens ein Eintrag muss ausgewählt sein.',
      ],
      [firstProblem(['a'], rules.minItems(2)), 'At least 2 items.', 'Mindestens 2 Einträge.'],
      [firstProblem(['a', 'b', 'c'], rules.maxItems(2)), 'Maximum 2 items.', 'Höchstens 2 Einträge.'],
      [firstProblem('0', rules.min(1)), 'Minimum value 1.', 'Mindestwert 1.'],
      [firstProblem('501', rules.max(500)), 'Maximum value 500.', 'Höchstwert 500.'],
      [firstProblem('12a', rules.number()), 'Not a valid number.', 'Keine gültige Zahl.'],
      [firstProblem('2.5', rules.wholeNumber()), 'Not a valid number.', 'Keine gültige Zahl.'],
      [
        firstProblem('2026-01-01', rules.notBefore('2026-02-01')),
        "Must be greater or less than another field's value.",
        'Muss größer oder kleiner als der Wert eines anderen Felds sein.',
      ],
      [
        firstProblem('2026-02-30', rules.date()),
        'Invalid date, time or date/time format.',
        'Ungültiges Datums-, Zeit- oder Datum/Zeit-Format.',
      ],
    ];
    for (const [problem, english, german] of cases) {
      expect(en(problem)).toBe(english);
      expect(de(problem)).toBe(german);
    }
  });

  it('gives the first failing rule, and lets an empty optional value pass all but required and items', () => {
    expect(firstProblem('', rules.required(), rules.number())).toEqual({ key: 'required' });
    expect(firstProblem('abc', rules.required(), rules.number(), rules.min(1))).toEqual({ key: 'number' });
    expect(firstProblem('0', rules.required(), rules.number(), rules.min(1))).toEqual({ key: 'min', value: 1 });
    for (const rule of [
      rules.minLength(2),
      rules.pattern(/x/),
      rules.email(),
      rules.number(),
      rules.date(),
      rules.dateTime(),
    ])
      expect(rule('')).toBeNull();
    expect(rules.min(1)('')).toBeNull();
    expect(rules.minItems()([])).toEqual({ key: 'atLeastOne' });
    expect(rules.minItems()(new Map([[1, 1]]))).toBeNull();
  });

  it('reads numbers as typed, a German decimal comma too', () => {
    expect(parseNumber('0,02')).toBe(0.02);
    expect(parseNumber(' 12 ')).toBe(12);
    expect(parseNumber('-3.5')).toBe(-3.5);
    for (const text of ['', '1e3', '1.2.3', '12a', '--1', 'Infinity', '0x10'])
      expect(parseNumber(text)).toBeUndefined();
    expect(rules.max(1000)('1000,5')).toEqual({ key: 'max', value: 1000 });
  });

  it('knows a calendar date and a date with a time', () => {
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-13-01')).toBe(false);
    expect(isDate('26-1-1')).toBe(false);
    expect(isDateTime('2026-11-25T09:30')).toBe(true);
    expect(isDateTime('2026-11-25T24:00')).toBe(false);
    expect(isDateTime('2026-11-25')).toBe(false);
  });

  it('takes an http or https address with a host as a web address', () => {
    expect(isWebAddress('https://contoso.sharepoint.com/sites/vault')).toBe(true);
    expect(isWebAddress(' http://x ')).toBe(true);
    for (const text of ['contoso.sharepoint.com', 'ftp://x', 'https://', 'mailto:a@b.c', 'https//x'])
      expect(isWebAddress(text)).toBe(false);
    expect(rules.url()('contoso.sharepoint.com')).toEqual({ key: 'pattern' });
    expect(rules.url()('')).toBeNull();
  });

  it('compares a range’s ends as numbers or as dates, and lets a range with an open end pass', () => {
    expect(rules.notBefore('9')('10')).toBeNull();
    expect(rules.notBefore('10')('9')).toEqual({ key: 'compare' });
    expect(rules.notAfter('2026-11-01')('2026-11-02')).toEqual({ key: 'compare' });
    expect(rules.notAfter('2026-11-02')('2026-11-02')).toBeNull();
    expect(rules.notAfter('')('2026-11-02')).toBeNull();
    expect(rules.notBefore(undefined)('2026-11-02')).toBeNull();
  });
});
