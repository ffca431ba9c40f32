/**
 * The pages' help links against the help center's articles: every topic and article a page names is
 * written in English and German, every article written is listed, and every page with a header links
 * to its help (the help center and the imprint aside).
 */
import { describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { HELP_TOPICS, type HelpTarget, helpLocation } from './topics';

/** The pages' sources (tests aside), by path under src/. */
const sources = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['../../features/**/*.tsx', '!../../**/*.test.tsx'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  ).map(([path, text]) => [path.replace('../../', ''), text]),
);

/** The pages that have no help of their own: the help center itself, and the imprint's legal text. */
const WITHOUT_HELP = ['features/account/helpcenter-page.tsx', 'features/account/imprint-page.tsx'];

/** Each `<PageHeader …>` element of a source: from its name to the first `>` outside braces. */
function pageHeaders(text: string): string[] {
  return [...text.matchAll(/<PageHeader\b/g)].map(({ index: start }) => {
    let depth = 0;
    let end = start;
    for (; end < text.length; end += 1) {
      const c = text[end];
      if (c === '{') depth += 1;
      else if (c === '}') depth -= 1;
      else if (c === '>' && depth === 0) break;
    }
    return text.slice(start, end + 1);
  });
}

/**
 * The help targets a source passes to its page headers: `help="…"` as written, and for
 * `help={NAME[…]}` every value of the object `NAME` (a map from a tab to its article).
 */
function helpTargets(text: string): string[] {
  return pageHeaders(text).flatMap((element) => {
    const literal = /\bhelp="([^"]+)"/.exec(element);
    if (literal?.[1]) return [literal[1]];
    const mapped = /\bhelp=\{(\w+)\[/.exec(element);
    if (!mapped?.[1]) return [];
    const object = new RegExp(`const ${mapped[1]} = \\{([\\s\\S]*?)\\}`).exec(text)?.[1] ?? '';
    return [...object.matchAll(/:\s*'([^']+)'/g)].map((m) => m[1] ?? '');
  });
}

const texts = { en: en.helpcenter.topics, de: de.helpcenter.topics } as const;

/** The question and answer of a target's article (its topic's first without one), in a language. */
function article(language: 'en' | 'de', target: string) {
  const { topic, article: id } = helpLocation(target as HelpTarget);
  const written = texts[language][topic] as Record<string, string> | undefined;
  const listed = HELP_TOPICS.find((known) => known.id === topic);
  const shown = id ?? listed?.articles[0] ?? '';
  return {
    listed: Boolean(listed && (listed.articles as readonly string[]).includes(shown)),
    title: written?.title,
    q: written?.[`${shown}q`],
    a: written?.[`${shown}a`],
  };
}

describe('help links', () => {
  const used = Object.entries(sources).flatMap(([path, text]) => helpTargets(text).map((target) => ({ path, target })));

  it('are found on the pages', () => {
    // The pages of every area pass one: far more than the areas.
    expect(used.length).toBeGreaterThan(30);
    expect(new Set(used.map((u) => u.target.split('.')[0]))).toEqual(
      new Set([
        'overview',
        'backup',
        'dataManagement',
        'emailArchive',
        'teamsArchive',
        'ediscovery',
        'reports',
        'documents',
        'configuration',
        'partner',
        'account',
        'support',
      ]),
    );
  });

  it('name topics and articles the help center lists and that are written in English and German', () => {
    for (const { path, target } of used) {
      for (const language of ['en', 'de'] as const) {
        const found = article(language, target);
        expect(found.listed, `${path}: ${target} is not listed in HELP_TOPICS`).toBe(true);
        expect(found.title, `${path}: ${target} has no ${language} title`).toBeTruthy();
        expect(found.q, `${path}: ${target} has no ${language} question`).toBeTruthy();
        expect(found.a, `${path}: ${target} has no ${language} answer`).toBeTruthy();
      }
    }
  });

  it('are on every page with a header but the help center and the imprint', () => {
    const withHeader = Object.entries(sources).filter(([, text]) => pageHeaders(text).length > 0);
    const missing = withHeader.flatMap(([path, text]) =>
      WITHOUT_HELP.includes(path)
        ? []
        : pageHeaders(text)
            .filter((element) => !/\bhelp=/.test(element))
            .map((element) => `${path}: ${element.split('\n')[0]}`),
    );
    expect(missing).toEqual([]);
    expect(withHeader.map(([path]) => path)).toEqual(expect.arrayContaining(WITHOUT_HELP));
  });
});

describe('help topics', () => {
  it('list every article written, in both languages, and nothing unwritten', () => {
    for (const language of ['en', 'de'] as const) {
      const written = Object.entries(texts[language]).flatMap(([topic, entries]) =>
        Object.keys(entries)
          .filter((key) => key.endsWith('q'))
          .map((key) => `${topic}.${key.slice(0, -1)}`),
      );
      const listed = HELP_TOPICS.flatMap((topic) => topic.articles.map((id) => `${topic.id}.${id}`));
      expect(listed.toSorted(), language).toEqual(written.toSorted());
    }
  });
});
