import { Alert, List, Stack, Text } from '@chakra-ui/react';
import type { DeletionHeldCustodian, Job, Recurrence, Retention } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatNumber } from '../../components/ui/format';
import { useDebounced } from '../../components/ui/list-state';
import { PageHeader } from '../../components/ui/page-header';
import {
  normaliseRecurrence,
  RecurrenceEditor,
  RetentionEditor,
  useRecurrenceError,
} from '../../components/ui/recurrence-editor';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { failureText } from '../../errors/api-errors';
import { locationsQuery } from '../../shared/api/queries';
import { JobsList } from '../../shared/jobs/jobs-list';
import { SourcePicker } from '../../shared/jobs/source-picker';
import { RequireTenant, useApi, useTenant } from '../../shared/tenant';
import { useSaveDeletionJob } from './api/mutations';
import { deletionPreviewQuery } from './api/queries';
import { DeletionConfirm, DeletionStartDetails } from './deletion-confirm';

/** The most held custodians the preview names; the rest are counted. */
const NAMED_CUSTODIANS = 8;

/** Which custodians of which cases on legal hold keep items from the deletion, by name, and how many. */
function HeldCustodians({ custodians }: { custodians: DeletionHeldCustodian[] }) {
  const { t, i18n } = useTranslation();
  if (custodians.length === 0) return null;
  const more = custodians.length - NAMED_CUSTODIANS;
  return (
    <Stack gap="1" mt="2">
      <Text fontWeight="semibold" fontSize="sm" id="deletion-held-custodians">
        {t('deletionJobs:keptCustodians')}
      </Text>
      <List.Root ps="4" fontSize="sm" aria-labelledby="deletion-held-custodians" data-testid="deletion-held-custodians">
        {custodians.slice(0, NAMED_CUSTODIANS).map((c) => (
          <List.Item key={`${c.caseId}:${c.kind}:${c.id}`}>
            {t('deletionJobs:keptCustodian', {
              name: c.name,
              kind: t(`deletionJobs:custodianKinds.${c.kind}`),
              caseName: c.caseName,
              count: c.items,
              items: formatNumber(c.items, i18n.language),
            })}
          </List.Item>
        ))}
        {more > 0 ? <List.Item>{t('deletionJobs:keptMore', { count: more })}</List.Item> : null}
      </List.Root>
    </Stack>
  );
}

/**
 * An archive deletion job: mailboxes, retention (with what it would remove now, and what legal holds
 * keep), schedule.
 */
function DeletionJobForm({ tenantId, job, onClose }: { tenantId: string; job?: Job; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const [name, setName] = useState(job?.name ?? '');
  const [sources, setSources] = useState(new Set(job?.sources ?? []));
  const [retention, setRetention] = useState<Retention>(job?.retention ?? { unit: 'year', value: 1 });
  const [recurrence, setRecurrence] = useState<Recurrence>(
    job?.recurrence ?? { kind: 'monthly', dayOfMonth: 1, hours: [3] },
  );
  const [touched, setTouched] = useState(false);
  // A valid form is saved only after its confirmation, which states what the job deletes.
  const [confirming, setConfirming] = useState(false);
  const settled = useDebounced({ sources: [...sources].sort(), retention }, 400);
  const preview = useQuery(deletionPreviewQuery(api, tenantId, settled));
  const check = useValidator();
  const recurrenceError = useRecurrenceError();
  const nameError = check(name, rules.required(), rules.maxLength(120));
  const scheduleError = recurrenceError(recurrence);
  // The schedule's problem is shown in the schedule; the others under the form.
  const problem = nameError ?? check(sources, rules.minItems());
  const save = useSaveDeletionJob(api, tenantId, job, (saved) => {
    showToast(
      'success',
      t(job ? 'confirmations:deletion.updated' : 'confirmations:deletion.created', { name: saved.name }),
    );
    setConfirming(false);
    onClose();
  });
  // A job not saved: the form's own text, then why in the catalogue's words.
  const failure = save.error ? failureText(t, t('backup:form.failed'), save.error) : null;
  const lang = i18n.language;
  return (
    <FormDialog
      title={job ? t('deletionJobs:editTitle') : t('deletionJobs:createTitle')}
      formId="deletion-job-form"
      onSubmit={() => {
        setTouched(true);
        if (!problem && !scheduleError) {
          save.reset();
          setConfirming(true);
        }
      }}
      submitLabel={job ? t('common:save') : t('backup:form.create')}
      submitPalette="red"
      pending={save.isPending && !confirming}
      onClose={onClose}
      aside={
        <DeletionConfirm
          tenantId={tenantId}
          open={confirming}
          editing={!!job}
          name={name.trim()}
          sources={[...sources]}
          retention={retention}
          recurrence={recurrence}
          pending={save.isPending}
          failure={failure}
          onConfirm={() =>
            save.mutate({
              name: name.trim(),
              sources: [...sources],
              retention,
              recurrence: normaliseRecurrence(recurrence),
            })
          }
          onCancel={() => {
            if (!save.isPending) setConfirming(false);
          }}
        />
      }
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
        <SourcePicker
          tenantId={tenantId}
          locationId={locations.data?.[0]?.locationId ?? ''}
          application="exchange"
          selected={sources}
          onChange={setSources}
        />
        <RetentionEditor value={retention} onChange={setRetention} />
        <Alert.Root status="warning" data-testid="deletion-preview" aria-live="polite">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              {sources.size === 0
                ? t('deletionJobs:previewChoose')
                : preview.data
                  ? t('deletionJobs:preview', {
                      count: preview.data.items,
                      items: formatNumber(preview.data.items, lang),
                      size: formatBytes(preview.data.bytes, lang),
                      mailboxes: t('deletionJobs:mailboxCount', {
                        count: preview.data.sources,
                        n: formatNumber(preview.data.sources, lang),
                      }),
                      before: formatDate(preview.data.before, lang),
                    })
                  : t('common:loading')}
            </Alert.Title>
            {sources.size > 0 && preview.data && preview.data.held > 0 ? (
              <Alert.Description>
                <Text as="span" fontWeight="semibold" data-testid="deletion-held">
                  {t('deletionJobs:kept', {
                    count: preview.data.held,
                    items: formatNumber(preview.data.held, lang),
                  })}
                </Text>{' '}
                · {t('deletionJobs:keptExplain')}
                <HeldCustodians custodians={preview.data.heldCustodians} />
              </Alert.Description>
            ) : null}
          </Alert.Content>
        </Alert.Root>
        <RecurrenceEditor
          value={recurrence}
          onChange={setRecurrence}
          {...(touched && scheduleError ? { error: scheduleError } : {})}
        />
        {touched && problem ? <StatusAlert status="error">{problem}</StatusAlert> : null}
        {failure && !confirming ? <StatusAlert status="error">{failure}</StatusAlert> : null}
      </Stack>
    </FormDialog>
  );
}

/** Deletion jobs: archived mail past its retention is removed on a schedule. */
export function DeletionJobsPage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:deletionJobs')} description={t('deletionJobs:description')} help="emailArchive.a4" />
      <RequireTenant>
        {(tenantId) => (
          <JobsList
            from="/_app/_worker/archive/deletion-jobs"
            tenantId={tenantId}
            trial={trial}
            area={{
              type: 'archiveDeletion',
              applications: ['exchange'],
              texts: {
                label: t('pages:deletionJobs'),
                empty: t('deletionJobs:empty'),
                create: t('deletionJobs:create'),
              },
              trialLimited: false,
              renderForm: ({ job, onClose }) => (
                <DeletionJobForm tenantId={tenantId} {...(job ? { job } : {})} onClose={onClose} />
              ),
              // A deletion started now deletes at once: its confirmation says how much.
              actionDetails: ({ job, action }) =>
                action === 'start' ? <DeletionStartDetails tenantId={tenantId} job={job} /> : null,
            }}
          />
        )}
      </RequireTenant>
      <Text fontSize="xs" color="fg.muted" mt="2">
        {t('deletionJobs:note')}
      </Text>
    </>
  );
}
