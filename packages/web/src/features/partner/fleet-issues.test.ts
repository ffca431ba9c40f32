import { FLEET_AREAS, FLEET_ISSUES } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { createI18n, loadLanguage } from '../../i18n';
import { type FleetIssue, issueTarget, issueText } from './fleet-issues';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');

describe('a fleet issue', () => {
  it('opens the page it is on: failed runs filtered in their area’s monitor, the rest where they are dealt with', () => {
    const monitors = FLEET_AREAS.map((area) => issueTarget({ code: 'runFailed', area, count: 1 }));
    expect(monitors.map((m) => m.to)).toEqual([
      '/backup-and-restore/job-monitor',
      '/backup-and-restore/job-monitor',
      '/backup-and-restore/job-monitor',
      '/archive/job-monitor',
      '/teams/job-monitor',
    ]);
    for (const m of monitors) expect(m.search).toEqual({ status: 'failed' });
    for (const code of ['runWarning', 'backupOverdue', 'neverBackedUp'] as const)
      expect(issueTarget({ code, area: 'teamsArchive' })).toMatchObject({ to: '/teams/job-monitor', search: {} });
    for (const code of ['connectionFailed', 'connectionUntested', 'noTenant'] as const)
      expect(issueTarget({ code })).toMatchObject({ to: '/configuration', search: {} });
    expect(issueTarget({ code: 'noLocation' })).toMatchObject({ to: '/configuration', search: { tab: 'locations' } });
    expect(issueTarget({ code: 'licenseExpired' })).toMatchObject({ search: { tab: 'licence' } });
    expect(issueTarget({ code: 'licenseExpiring' })).toMatchObject({ search: { tab: 'licence' } });
    // Nothing to do, or runs of no area: the client's dashboard.
    expect(issueTarget(undefined)).toMatchObject({ to: '/' });
    expect(issueTarget({ code: 'runFailed', count: 2 })).toMatchObject({ to: '/' });
  });

  it('is said in words in English and German, every code of the contract', async () => {
    for (const language of ['en', 'de'] as const) {
      const i18n = createI18n(language);
      await loadLanguage(i18n, language);
      const full = { license: 'full' as const, licenseValidUntil: null };
      for (const code of FLEET_ISSUES) {
        const text = issueText(i18n.t, full, { code, area: 'oneDrive', count: 2 }, NOW);
        expect(text, code).not.toMatch(/fleet|issues|\{\{/);
      }
    }
    const i18n = createI18n('en');
    await loadLanguage(i18n, 'en');
    const say = (issue: FleetIssue, licenseValidUntil: string | null = null, license: 'trial' | 'full' = 'full') =>
      issueText(i18n.t, { license, licenseValidUntil }, issue, NOW);
    expect(say({ code: 'runFailed', area: 'oneDrive', count: 2 })).toBe('2 failed runs in OneDrive backup');
    expect(say({ code: 'runFailed', area: 'mailArchive', count: 1 })).toBe('1 failed run in Mail archive');
    expect(say({ code: 'runFailed', count: 3 })).toBe('3 failed runs');
    expect(say({ code: 'connectionFailed' })).toBe('Connection test failed');
    expect(say({ code: 'licenseExpiring' }, '2026-11-28T10:00:00.000Z', 'trial')).toBe('Trial ends in 5 days');
    expect(say({ code: 'licenseExpiring' }, '2026-11-24T10:00:00.000Z')).toBe('Licence ends in 1 day');
    expect(say({ code: 'licenseExpired' }, '2026-11-20T10:00:00.000Z', 'trial')).toBe('Trial ended');
  });
});
