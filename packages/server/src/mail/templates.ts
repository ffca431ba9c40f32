/**
 * The notification mails in every language the portal writes them in: what each mail is given
 * (its figures and links, computed by whoever sends it) and the language modules that word it, one
 * module per language. A sender picks the module by the reader's language and renders the document
 * (mail-document.ts); no text of a mail is written anywhere else.
 */
import type { MailDocument, MailLanguage } from './mail-document.js';
import { germanTemplates } from './templates-de.js';
import { englishTemplates } from './templates-en.js';

/** A run that ended, for its own mail (`jobFailed`, `jobFinished`). */
interface RunEndedInput {
  job: string;
  tenant: string;
  status: 'failed' | 'finished';
  message: string;
  /** The run on its area's job monitor. */
  link: string;
}

/** A failed run, or one that finished with warnings, in the daily summary. */
export interface SummaryRun {
  job: string;
  outcome: 'failed' | 'warnings';
  /** Items not processed (the run's warnings). */
  warnings: number;
  message: string;
  at: Date;
  link: string;
}

/** The daily summary: one group per client (organisation) and tenant, in the reader's time zone. */
interface DailySummaryInput {
  from: Date;
  to: Date;
  timeZone: string;
  groups: readonly { organisation: string; tenant: string; runs: readonly SummaryRun[] }[];
}

/** The areas the weekly report tells, as the fleet names them. */
export type ReportArea = 'oneDrive' | 'sharePoint' | 'teams' | 'mailArchive' | 'teamsArchive';

/** A customer administrator's weekly report: each area's week. */
interface WeeklyCustomerInput {
  organisation: string;
  from: Date;
  to: Date;
  timeZone: string;
  areas: readonly {
    area: ReportArea;
    runs: number;
    failed: number;
    lastSuccess: Date | null;
    storedBytes: number;
    link: string;
  }[];
}

/** A partner's weekly report: one line per client, those needing attention first. */
export interface WeeklyPartnerInput {
  partner: string;
  from: Date;
  to: Date;
  timeZone: string;
  clients: readonly {
    name: string;
    attention: 'critical' | 'warning' | 'ok';
    failed24h: number;
    failed7d: number;
    lastSuccess: Date | null;
    storedBytes: number;
  }[];
  link: string;
}

/** A warning that an organisation's licence ends in `daysLeft` days, or (0) has ended. */
interface LicenceExpiryInput {
  organisation: string;
  validUntil: Date;
  daysLeft: number;
  timeZone: string;
  link: string;
}

/** The test mail of the notification settings. */
interface TestMailInput {
  to: string;
  link: string;
}

/** The mails of one language. */
export interface MailTemplates {
  runEnded(input: RunEndedInput): MailDocument;
  dailySummary(input: DailySummaryInput): MailDocument;
  weeklyCustomer(input: WeeklyCustomerInput): MailDocument;
  weeklyPartner(input: WeeklyPartnerInput): MailDocument;
  licenceExpiry(input: LicenceExpiryInput): MailDocument;
  testMail(input: TestMailInput): MailDocument;
}

const TEMPLATES: Record<MailLanguage, MailTemplates> = { en: englishTemplates, de: germanTemplates };

/** The mails in `language`. */
export function templatesFor(language: MailLanguage): MailTemplates {
  return TEMPLATES[language];
}
