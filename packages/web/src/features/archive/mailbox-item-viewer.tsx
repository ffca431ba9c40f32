import {
  Alert,
  Button,
  CloseButton,
  chakra,
  Drawer,
  HStack,
  List,
  NativeSelect,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import type {
  ArchivedContactFields,
  ArchivedEventFields,
  ArchivedMailboxItem,
  ArchivedRecurrence,
  ArchivedTaskFields,
  MailboxItemKind,
} from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatDateTime } from '../../components/ui/format';
import { useServerAction } from '../../offline/online';
import { useApi } from '../../shared/tenant';
import { mailboxItemQuery } from './api/browse-queries';
import { useMailboxItemFileDownload } from './api/downloads';
import { useMailReadFailure } from './mail-read-failure';
import type { RestorableItem } from './restore-mailbox-item';

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Text fontSize="sm" wordBreak="break-word">
      <strong>{label}</strong> {value}
    </Text>
  );
}

function Section({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap="1">
      <Text fontSize="sm" fontWeight="semibold">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** A weekday's name in the reader's language (Graph names them in English: sunday…saturday). */
const weekday = (day: string, lang: string) => {
  const n = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].indexOf(day);
  // 2026-11-01 was a Sunday.
  return n < 0
    ? day
    : new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 1 + n));
};
const monthName = (month: number, lang: string) =>
  new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2026, Math.max(0, month - 1), 1));
const list = (items: string[], lang: string) => new Intl.ListFormat(lang, { type: 'conjunction' }).format(items);

/** A series' pattern and range in words, in the reader's language. */
function recurrenceInWords(r: ArchivedRecurrence, t: TFunction, lang: string): string {
  const days = list(
    r.daysOfWeek.map((d) => weekday(d, lang)),
    lang,
  );
  const index = r.index && ['first', 'second', 'third', 'fourth', 'last'].includes(r.index) ? r.index : 'first';
  const known = ['daily', 'weekly', 'absoluteMonthly', 'relativeMonthly', 'absoluteYearly', 'relativeYearly'];
  const type = (known.includes(r.type) ? r.type : 'daily') as
    | 'daily'
    | 'weekly'
    | 'absoluteMonthly'
    | 'relativeMonthly'
    | 'absoluteYearly'
    | 'relativeYearly';
  const pattern = t(`mailboxItems:pattern.${type}`, {
    count: Math.max(1, r.interval),
    days,
    day: r.dayOfMonth,
    month: monthName(r.month, lang),
    index: t(`mailboxItems:indexes.${index as 'first' | 'second' | 'third' | 'fourth' | 'last'}`),
  });
  const start = formatDate(r.startDate ? `${r.startDate}T00:00:00Z` : null, lang);
  const range =
    r.range === 'endDate'
      ? t('mailboxItems:range.endDate', { start, end: formatDate(r.endDate ? `${r.endDate}T00:00:00Z` : null, lang) })
      : r.range === 'numbered'
        ? t('mailboxItems:range.numbered', { start, count: r.occurrences })
        : t('mailboxItems:range.noEnd', { start });
  return `${pattern}, ${range}`;
}

const RESPONSES = ['none', 'organizer', 'tentativelyAccepted', 'accepted', 'declined', 'notResponded'] as const;
const TYPES = ['required', 'optional', 'resource'] as const;
const STATUSES = ['notStarted', 'inProgress', 'completed', 'waitingOnOthers', 'deferred'] as const;
const IMPORTANCES = ['low', 'normal', 'high'] as const;
const oneOf = <V extends string>(values: readonly V[], value: string | null): V | undefined =>
  values.find((v) => v === value);

/** A task's status in words (Graph's own word when it names one we do not know). */
export function taskStatus(status: string | null, t: TFunction): string {
  const known = oneOf(STATUSES, status);
  return known ? t(`mailboxItems:statuses.${known}`) : (status ?? '');
}

function EventView({ event, lang }: { event: ArchivedEventFields; lang: string }) {
  const { t } = useTranslation();
  const time = (iso: string | null) => (event.isAllDay ? formatDate(iso, lang) : formatDateTime(iso, lang));
  return (
    <Stack gap="3">
      <Stack gap="1" data-testid="item-fields">
        <Field
          label={t('mailboxItems:organizer')}
          value={
            event.organizer ? `${event.organizer.name} <${event.organizer.address}>`.replace(/^ <(.*)>$/, '$1') : ''
          }
        />
        <Field label={t('mailboxItems:start')} value={time(event.start)} />
        <Field label={t('mailboxItems:end')} value={time(event.end)} />
        {event.isAllDay ? <Field label={t('mailboxItems:allDay')} value="✓" /> : null}
        <Field label={t('mailboxItems:timeZone')} value={event.timeZone} />
        <Field label={t('mailboxItems:location')} value={event.location} />
        <Field
          label={t('mailboxItems:recurrence')}
          value={event.recurrence ? recurrenceInWords(event.recurrence, t, lang) : ''}
        />
      </Stack>
      <Section label={t('mailboxItems:attendeeCount', { count: event.attendees.length })}>
        {event.attendees.length > 0 ? (
          <List.Root fontSize="sm" ps="4" aria-label={t('mailboxItems:attendees')}>
            {event.attendees.map((a) => {
              const response = oneOf(RESPONSES, a.response);
              const type = oneOf(TYPES, a.type);
              return (
                <List.Item key={a.address || a.name} wordBreak="break-word">
                  {a.name || a.address}
                  {a.name && a.address ? ` <${a.address}>` : ''}
                  {type ? ` (${t(`mailboxItems:attendeeTypes.${type}`)})` : ''}
                  {response ? ` · ${t(`mailboxItems:responses.${response}`)}` : ''}
                </List.Item>
              );
            })}
          </List.Root>
        ) : null}
      </Section>
      <Section label={t('mailboxItems:attachments')}>
        {event.attachments.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            {t('mailboxItems:noAttachments')}
          </Text>
        ) : (
          <List.Root fontSize="sm" ps="4" aria-label={t('mailboxItems:attachments')}>
            {event.attachments.map((a, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: attachments have no id; an archived version never changes.
              <List.Item key={`${a.name}-${n}`} wordBreak="break-word">
                {a.name} ({a.sizeBytes === null ? '—' : formatBytes(a.sizeBytes, lang)})
              </List.Item>
            ))}
          </List.Root>
        )}
      </Section>
      {event.body ? (
        <Text whiteSpace="pre-wrap" wordBreak="break-word" borderTopWidth="1px" pt="3" data-testid="item-body">
          {event.body}
        </Text>
      ) : null}
    </Stack>
  );
}

function ContactView({ contact, lang }: { contact: ArchivedContactFields; lang: string }) {
  const { t } = useTranslation();
  const fullName = [contact.givenName, contact.middleName, contact.surname].filter(Boolean).join(' ');
  return (
    <Stack gap="3" data-testid="item-fields">
      <Stack gap="1">
        <Field label={t('mailboxItems:name')} value={fullName} />
        <Field
          label={t('mailboxItems:company')}
          value={[contact.companyName, contact.department].filter(Boolean).join(', ')}
        />
        <Field label={t('mailboxItems:jobTitle')} value={contact.jobTitle} />
        <Field label={t('mailboxItems:birthday')} value={contact.birthday ? formatDate(contact.birthday, lang) : ''} />
      </Stack>
      {contact.emails.length > 0 ? (
        <Section label={t('mailboxItems:emails')}>
          <List.Root fontSize="sm" ps="4" aria-label={t('mailboxItems:emails')}>
            {contact.emails.map((e) => (
              <List.Item key={e.address} wordBreak="break-all">
                {e.address}
              </List.Item>
            ))}
          </List.Root>
        </Section>
      ) : null}
      {contact.phones.length > 0 ? (
        <Section label={t('mailboxItems:phones')}>
          <List.Root fontSize="sm" ps="4" aria-label={t('mailboxItems:phones')}>
            {contact.phones.map((p) => (
              <List.Item key={`${p.kind}-${p.number}`}>
                {t(`mailboxItems:phoneKinds.${p.kind}`)}: {p.number}
              </List.Item>
            ))}
          </List.Root>
        </Section>
      ) : null}
      {contact.addresses.length > 0 ? (
        <Section label={t('mailboxItems:addresses')}>
          <List.Root fontSize="sm" ps="4" aria-label={t('mailboxItems:addresses')}>
            {contact.addresses.map((a) => (
              <List.Item key={a.kind} wordBreak="break-word">
                {t(`mailboxItems:addressKinds.${a.kind}`)}:{' '}
                {[a.street, [a.postalCode, a.city].filter(Boolean).join(' '), a.state, a.countryOrRegion]
                  .filter(Boolean)
                  .join(', ')}
              </List.Item>
            ))}
          </List.Root>
        </Section>
      ) : null}
      {contact.notes ? (
        <Section label={t('mailboxItems:notes')}>
          <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
            {contact.notes}
          </Text>
        </Section>
      ) : null}
    </Stack>
  );
}

function TaskView({ task, lang }: { task: ArchivedTaskFields; lang: string }) {
  const { t } = useTranslation();
  const importance = oneOf(IMPORTANCES, task.importance);
  return (
    <Stack gap="3" data-testid="item-fields">
      <Stack gap="1">
        <Field label={t('mailboxItems:status')} value={taskStatus(task.status, t)} />
        <Field
          label={t('mailboxItems:importance')}
          value={importance ? t(`mailboxItems:importances.${importance}`) : task.importance}
        />
        <Field label={t('mailboxItems:due')} value={task.due ? formatDate(task.due, lang) : ''} />
        <Field label={t('mailboxItems:completed')} value={task.completed ? formatDate(task.completed, lang) : ''} />
      </Stack>
      {task.checklist.length > 0 ? (
        <Section label={t('mailboxItems:checklist')}>
          <List.Root fontSize="sm" ps="4" aria-label={t('mailboxItems:checklist')}>
            {task.checklist.map((c, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: checklist items are shown without their ids.
              <List.Item key={`${c.displayName}-${n}`} wordBreak="break-word">
                {c.displayName} ({c.isChecked ? t('mailboxItems:checked') : t('mailboxItems:unchecked')})
              </List.Item>
            ))}
          </List.Root>
        </Section>
      ) : null}
      {task.body ? (
        <Text whiteSpace="pre-wrap" wordBreak="break-word" borderTopWidth="1px" pt="3" data-testid="item-body">
          {task.body}
        </Text>
      ) : null}
    </Stack>
  );
}

const titleOf = (item: ArchivedMailboxItem) =>
  item.event?.subject ?? item.contact?.displayName ?? item.task?.title ?? '';

/**
 * An archived calendar event, contact or task read in a drawer: the fields of one of its versions (the
 * latest first; any other chosen from the list of versions), whether it was deleted since, its
 * download (.ics or .vcf) and its restore; a refusal is said in words.
 */
export function MailboxItemViewer({
  tenantId,
  mailboxId,
  kind,
  itemId,
  onRestore,
  onClose,
}: {
  tenantId: string;
  mailboxId: string;
  kind: MailboxItemKind;
  itemId: string;
  onRestore: (item: RestorableItem) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const api = useApi();
  const serverAction = useServerAction();
  const failure = useMailReadFailure();
  const [version, setVersion] = useState<number | undefined>(undefined);
  const item = useQuery(mailboxItemQuery(api, tenantId, { mailboxId, kind, itemId, ...(version ? { version } : {}) }));
  const download = useMailboxItemFileDownload(api, tenantId, mailboxId);
  const shown = item.data;
  const latest = shown?.versions[0];
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header pe="12">
              <Drawer.Title wordBreak="break-word">
                {shown ? titleOf(shown) || t('mailboxItems:noTitle') : t('common:loading')}
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {shown && latest ? (
                <Stack gap="4">
                  {shown.deleted ? (
                    <Alert.Root status="warning" data-testid="item-deleted">
                      <Alert.Indicator />
                      <Alert.Title>
                        {t('mailboxItems:deletedBanner', { date: formatDateTime(shown.deletedAt, lang) })}
                      </Alert.Title>
                    </Alert.Root>
                  ) : null}
                  <Stack gap="1">
                    <chakra.label htmlFor="mailbox-item-version" fontSize="sm" fontWeight="medium">
                      {t('mailboxItems:shownVersion')}
                    </chakra.label>
                    <NativeSelect.Root size="sm">
                      <NativeSelect.Field
                        id="mailbox-item-version"
                        value={String(shown.version)}
                        onChange={(e) => setVersion(Number(e.target.value))}
                      >
                        {shown.versions.map((v) => (
                          <option key={v.version} value={v.version}>
                            {t(
                              v.version === latest.version
                                ? 'mailboxItems:versionLatest'
                                : 'mailboxItems:versionOption',
                              {
                                version: v.version,
                                date: formatDateTime(v.archivedAt, lang),
                              },
                            )}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                  </Stack>
                  <Field
                    label={t(
                      kind === 'event'
                        ? 'mailboxItems:calendar'
                        : kind === 'contact'
                          ? 'mailboxItems:folder'
                          : 'mailboxItems:list',
                    )}
                    value={shown.container}
                  />
                  {shown.event ? <EventView event={shown.event} lang={lang} /> : null}
                  {shown.contact ? <ContactView contact={shown.contact} lang={lang} /> : null}
                  {shown.task ? <TaskView task={shown.task} lang={lang} /> : null}
                  <HStack gap="2" wrap="wrap">
                    {kind !== 'task' ? (
                      <Button
                        variant="outline"
                        size="sm"
                        loading={download.isPending}
                        onClick={() => download.mutate({ kind, itemId })}
                        {...serverAction}
                      >
                        {t(`mailboxItems:download.${kind}`)}
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      colorPalette="blue"
                      onClick={() => onRestore({ kind, itemId, title: latest.title, jobId: shown.jobId })}
                      {...serverAction}
                    >
                      {t('mailboxItems:restoreTrigger')}
                    </Button>
                  </HStack>
                  {download.error ? <StatusAlert status="error">{failure(download.error)}</StatusAlert> : null}
                </Stack>
              ) : item.isError ? (
                <StatusAlert status="error">
                  <span data-testid="item-failure">{failure(item.error) ?? t('mailboxItems:viewerFailed')}</span>
                </StatusAlert>
              ) : (
                <Text aria-busy="true">{t('common:loading')}</Text>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
