import { chakra, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { type Job, MAILBOX_PARTS, type MailboxPart, type Recurrence } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FolderPaths } from '../../components/ui/folder-paths';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { normaliseRecurrence, RecurrenceEditor, useRecurrenceError } from '../../components/ui/recurrence-editor';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { failureText } from '../../errors/api-errors';
import { locationsQuery } from '../../shared/api/queries';
import { IncludeChoice, includedParts } from '../../shared/jobs/include-choice';
import { SourcePicker } from '../../shared/jobs/source-picker';
import { useApi } from '../../shared/tenant';
import { useSaveArchiveJob } from './api/mutations';

/**
 * An archive job: name, destination, the mailboxes (with folder paths), or the teams and the accounts
 * whose chats are archived, from discovery; and the schedule.
 */
export function ArchiveJobForm({
  tenantId,
  job,
  onClose,
  of = 'exchange',
}: {
  tenantId: string;
  job?: Job;
  onClose: () => void;
  /** Exchange mail (mailboxes and folders) or Teams (teams). */
  of?: 'exchange' | 'teams';
}) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const [name, setName] = useState(job?.name ?? '');
  const [locationId, setLocationId] = useState(job?.locationId ?? '');
  const [sources, setSources] = useState(new Set(job?.sources ?? []));
  const [folders, setFolders] = useState<string[]>(job?.folders ?? []);
  const [chats, setChats] = useState(new Set(job?.chats ?? []));
  // A new job, and one that never chose, includes everything.
  const [include, setInclude] = useState<MailboxPart[]>(includedParts(job?.include, MAILBOX_PARTS));
  const [recurrence, setRecurrence] = useState<Recurrence>(job?.recurrence ?? { kind: 'daily', hours: [1] });
  const [touched, setTouched] = useState(false);
  const location = locationId || locations.data?.[0]?.locationId || '';
  const check = useValidator();
  const recurrenceError = useRecurrenceError();
  const nameError = check(name, rules.required(), rules.maxLength(120));
  const scheduleError = recurrenceError(recurrence);
  const includeError = of === 'exchange' && include.length === 0 ? t('archiveJobs:include.atLeastOne') : null;
  // The schedule's problem is shown in the schedule; the others under the form.
  const problem = nameError ?? check(sources, rules.minItems()) ?? (!location ? t('backup:form.noLocation') : null);
  const save = useSaveArchiveJob(api, tenantId, job, of, (saved) => {
    showToast('success', t(job ? 'backup:form.updated' : 'backup:form.created', { name: saved.name }));
    onClose();
  });
  // A job not saved: the form's own text, then why in the catalogue's words; a missing Exchange archive job
  // has a text of its own.
  const failure = save.error
    ? failureText(
        t,
        t('backup:form.failed'),
        save.error,
        of === 'exchange' ? t('errors:exchangeJobNotFound') : undefined,
      )
    : null;
  return (
    <FormDialog
      title={t(
        of === 'teams'
          ? job
            ? 'archiveJobs:teamsEditTitle'
            : 'archiveJobs:teamsCreateTitle'
          : job
            ? 'archiveJobs:editTitle'
            : 'archiveJobs:createTitle',
      )}
      formId="archive-job-form"
      onSubmit={() => {
        setTouched(true);
        if (!problem && !scheduleError && !includeError)
          save.mutate({
            name: name.trim(),
            sources: [...sources],
            ...(of === 'exchange' ? { folders, include } : { chats: [...chats] }),
            locationId: location,
            recurrence: normaliseRecurrence(recurrence),
          });
      }}
      submitLabel={job ? t('common:save') : t('backup:form.create')}
      pending={save.isPending}
      onClose={onClose}
    >
      <Stack gap="5">
        <TextField
          label={t('backup:form.name')}
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
          error={nameError}
          showError={touched}
        />
        <Stack gap="1">
          <chakra.label htmlFor="archive-location" fontWeight="medium" fontSize="sm">
            {t('backup:form.destination')}
          </chakra.label>
          <NativeSelect.Root maxW="md">
            <NativeSelect.Field id="archive-location" value={location} onChange={(e) => setLocationId(e.target.value)}>
              {(locations.data ?? []).map((l) => (
                <option key={l.locationId} value={l.locationId}>
                  {l.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        <Stack gap="2">
          <Text fontWeight="medium" fontSize="sm">
            {t(of === 'teams' ? 'archiveJobs:teams' : 'archiveJobs:mailboxes')}
          </Text>
          <SourcePicker
            tenantId={tenantId}
            locationId={location}
            application={of}
            selected={sources}
            onChange={setSources}
          />
        </Stack>
        {of === 'exchange' ? (
          <>
            <IncludeChoice
              parts={MAILBOX_PARTS}
              value={include}
              onChange={setInclude}
              legend={t('archiveJobs:include.legend')}
              help={t('archiveJobs:include.help')}
              label={(part) => t(`archiveJobs:include.parts.${part}`)}
              error={touched ? includeError : null}
            />
            <FolderPaths value={folders} onChange={setFolders} />
          </>
        ) : (
          <Stack gap="2">
            <Text fontWeight="medium" fontSize="sm">
              {t('archiveJobs:chats')}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {t('archiveJobs:chatsHelp')}
            </Text>
            <SourcePicker
              tenantId={tenantId}
              locationId={location}
              application="exchange"
              unit={t('backup:units.onedrive')}
              coverage={false}
              selected={chats}
              onChange={setChats}
            />
          </Stack>
        )}
        <RecurrenceEditor
          value={recurrence}
          onChange={setRecurrence}
          {...(touched && scheduleError ? { error: scheduleError } : {})}
        />
        {touched && problem ? <StatusAlert status="error">{problem}</StatusAlert> : null}
        {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
      </Stack>
    </FormDialog>
  );
}
