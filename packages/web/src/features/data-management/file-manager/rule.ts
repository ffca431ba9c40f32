import type { CleanupRule } from '@compliance-portal/sdk';
import { firstProblem, parseNumber, type Rule, rules } from '../../../components/ui/validation';

/** A rule as typed: a count or a date, checked before it is used. */
export interface RuleDraft {
  kind: CleanupRule['kind'];
  count: string;
  date: string;
}

/** The rule the file manager opens with: keep the 5 newest versions. */
export const DEFAULT_RULE_DRAFT: RuleDraft = { kind: 'keepNewest', count: '5', date: '' };

/** The versions to keep: a whole number from 1 to 500. */
export const COUNT_RULES: Rule<string>[] = [rules.required(), rules.wholeNumber(), rules.min(1), rules.max(500)];
/** The day before which versions go: a date. */
export const DATE_RULES: Rule<string>[] = [rules.required(), rules.date()];

/**
 * Stands in for a rule that is not valid yet, for the request's type only: without a valid rule the
 * files are not listed, so nothing is browsed, previewed or cleaned up with it.
 */
export const PLACEHOLDER_RULE: CleanupRule = { kind: 'keepNewest', count: 1 };

/** The rule, or null while what is typed is not a valid one. */
export function ruleOf(draft: RuleDraft): CleanupRule | null {
  if (draft.kind === 'keepNewest') {
    const count = parseNumber(draft.count);
    return count === undefined || firstProblem(draft.count, ...COUNT_RULES) ? null : { kind: 'keepNewest', count };
  }
  return firstProblem(draft.date, ...DATE_RULES)
    ? null
    : { kind: 'olderThan', date: new Date(`${draft.date.trim()}T00:00:00.000Z`).toISOString() };
}
