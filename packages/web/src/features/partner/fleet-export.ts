import { FLEET_AREAS, type FleetClient } from '@compliance-portal/sdk';
import type { TFunction } from 'i18next';
import type { ExportColumn } from '../../components/ui/export-button';
import { issueText } from './fleet-issues';

const KINDS = ['accounts', 'sites', 'teams', 'mailboxes'] as const;

/**
 * The fleet's export: every figure of a client in a column of its own (numbers as numbers, times as
 * ISO 8601, empty when there is none), so a spreadsheet sorts and sums them.
 */
export function fleetExportColumns(t: TFunction, now: number): ExportColumn<FleetClient>[] {
  return [
    { header: t('fleet:columns.client'), value: (c) => c.name },
    { header: t('fleet:export.tenantDomain'), value: (c) => c.tenantDomain ?? '' },
    { header: t('fleet:export.attention'), value: (c) => t(`fleet:attention.${c.attention}`) },
    {
      header: t('fleet:export.issue'),
      value: (c) => (c.issues[0] ? issueText(t, c, c.issues[0], now) : ''),
    },
    { header: t('fleet:export.failed24h'), value: (c) => c.runs24h.failed },
    { header: t('fleet:export.warnings24h'), value: (c) => c.runs24h.warnings },
    { header: t('fleet:export.failed7d'), value: (c) => c.runs7d.failed },
    { header: t('fleet:export.warnings7d'), value: (c) => c.runs7d.warnings },
    ...FLEET_AREAS.map(
      (area): ExportColumn<FleetClient> => ({
        header: t('fleet:export.lastSuccess', { area: t(`fleet:areas.${area}`) }),
        value: (c) => c.lastSuccess[area] ?? '',
      }),
    ),
    ...KINDS.flatMap((kind): ExportColumn<FleetClient>[] => [
      {
        header: t('fleet:export.coverage', { kind: t(`fleet:coverage.${kind}`) }),
        value: (c) => c.coverage[kind].protected,
      },
      { header: t('fleet:export.found', { kind: t(`fleet:coverage.${kind}`) }), value: (c) => c.coverage[kind].found },
    ]),
    { header: t('fleet:export.storedBytes'), value: (c) => c.storedBytes },
    { header: t('fleet:export.growthBytes'), value: (c) => c.growthBytes7d },
    { header: t('fleet:export.license'), value: (c) => t(`configuration:kinds.${c.license}`) },
    { header: t('fleet:export.licenseValidUntil'), value: (c) => c.licenseValidUntil ?? '' },
    { header: t('fleet:export.connection'), value: (c) => t(`fleet:connection.${c.connection.state}`) },
    { header: t('fleet:export.connectionTestedAt'), value: (c) => c.connection.testedAt ?? '' },
    { header: t('fleet:export.runningJobs'), value: (c) => c.runningJobs },
  ];
}
