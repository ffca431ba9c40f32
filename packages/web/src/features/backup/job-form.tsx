import { chakra, HStack, NativeSelect, RadioGroup, Stack, Text } from '@chakra-ui/react';
import {
  type Job,
  type Recurrence,
  type Retention,
  SITE_PARTS,
  type SitePart,
  TRIAL_LIMITS,
} from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
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
import { IncludeChoice, includedParts } from '../../shared/jobs/include-choice';
import { SourcePicker } from '../../shared/jobs/source-picker';
import { useApi } from '../../shared/tenant';
import { useSaveBackupJob } from './api/mutations';
import { BACKUP_APPLICATIONS, type BackupApplication } from './areas';

const STEPS = ['application', 'sources', 'schedule', 'retention'] as const;
type Step = (typeof STEPS)[number];

/**
 * The guided form of a backup job: application, name and destination; accounts, sites or teams from
 * discovery; schedule; retention. Editing keeps the application.
 */
export function BackupJobForm({
  tenantId,
  trial,
  job,
  usedApplications,
  onClose,
}: {
  tenantId: string;
  trial: boolean;
  /** The job being edited; none to create one. */
  job?: Job;
  /** Applications that already have a backup job (trial: one each). */
  usedApplications: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const firstFree = BACKUP_APPLICATIONS.find((a) => !trial || !usedApplications.has(a)) ?? 'onedrive';
  const [step, setStep] = useState<Step>('application');
  const [application, setApplication] = useState<BackupApplication>(
    (job?.application as BackupApplication | undefined) ?? firstFree,
  );
  const [name, setName] = useState(job?.name ?? '');
  const [locationId, setLocationId] = useState(job?.locationId ?? '');
  const [sources, setSources] = useState<Set<string>>(new Set(job?.sources ?? []));
  const [recurrence, setRecurrence] = useState<Recurrence>(job?.recurrence ?? { kind: 'daily', hours: [2] });
  const [retention, setRetention] = useState<Retention>(job?.retention ?? { unit: 'days', value: 30 });
  // What a SharePoint backup takes of each site: a new job, and one that never chose, everything.
  const [include, setInclude] = useState<SitePart[]>(includedParts(job?.include, SITE_PARTS));
  const sharepoint = application === 'sharepoint';
  const [touched, setTouched] = useState(false);
  const location = locationId || locations.data?.[0]?.locationId || '';
  const limit = trial ? TRIAL_LIMITS.sourcesPerBackup : undefined;
  const blocked = trial && !job && usedApplications.has(application);
  const check = useValidator();
  const recurrenceError = useRecurrenceError();

  const nameError = check(name, rules.required(), rules.maxLength(120));
  const errors: Partial<Record<Step, string>> = {};
  if (nameError) errors.application = nameError;
  else if (!location) errors.application = t('backup:form.noLocation');
  else if (blocked) errors.application = t('apiErrors:trialBackupJobs');
  // A trial's backup takes at most its limit of sources: more are refused here as by the server.
  const sourcesError = check(sources, rules.minItems(), ...(limit !== undefined ? [rules.maxItems(limit)] : []));
  if (sourcesError) errors.sources = sourcesError;
  const includeError = sharepoint && include.length === 0 ? t('backup:form.include.atLeastOne') : null;
  // Said under the boxes themselves, as the schedule's problem is in the schedule.
  if (includeError && !errors.sources) errors.sources = includeError;
  const scheduleError = recurrenceError(recurrence);
  if (scheduleError) errors.schedule = scheduleError;
  const index = STEPS.indexOf(step);

  const save = useSaveBackupJob(api, tenantId, job, (saved) => {
    showToast('success', t(job ? 'backup:form.updated' : 'backup:form.created', { name: saved.name }));
    onClose();
  });
  // A job that cannot be created or updated: the catalogue's text, then why (a trial limit, say).
  const saveError = save.error ? failureText(t, t('backup:form.failed'), save.error) : null;

  const next = () => {
    setTouched(true);
    if (errors[step]) return;
    setTouched(false);
    if (index < STEPS.length - 1) setStep(STEPS[index + 1] ?? step);
    else
      save.mutate({
        name: name.trim(),
        sources: [...sources],
        locationId: location,
        recurrence: normaliseRecurrence(recurrence),
        retention,
        application,
        ...(sharepoint ? { include } : {}),
      });
  };

  return (
    <FormDialog
      title={job ? t('backup:form.editTitle') : t('backup:form.createTitle')}
      subtitle={
        <Text fontSize="sm" color="fg.muted" data-testid="form-step">
          {t('backup:form.step', { n: index + 1, of: STEPS.length, name: t(`backup:form.steps.${step}`) })}
        </Text>
      }
      formId="backup-job-form"
      onSubmit={next}
      submitLabel={index < STEPS.length - 1 ? t('common:continue') : job ? t('common:save') : t('backup:form.create')}
      pending={save.isPending}
      {...(index > 0 ? { cancel: { label: t('common:back'), onClick: () => setStep(STEPS[index - 1] ?? step) } } : {})}
      onClose={onClose}
    >
      {step === 'application' ? (
        <Stack gap="4">
          <RadioGroup.Root
            value={application}
            disabled={!!job}
            onValueChange={(e) => {
              setApplication(e.value as BackupApplication);
              setSources(new Set());
            }}
            aria-label={t('backup:form.application')}
          >
            <Text fontWeight="medium" mb="2">
              {t('backup:form.application')}
            </Text>
            <HStack gap="6" wrap="wrap">
              {BACKUP_APPLICATIONS.map((a) => (
                <RadioGroup.Item key={a} value={a}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>
                    {t(`backup:applications.${a}`)}
                    {trial && !job && usedApplications.has(a) ? ` (${t('backup:form.limitReached')})` : ''}
                  </RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </HStack>
          </RadioGroup.Root>
          <TextField
            label={t('backup:form.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={120}
            error={nameError}
            showError={touched}
          />
          <Stack gap="1">
            <chakra.label htmlFor="backup-location" fontWeight="medium" fontSize="sm">
              {t('backup:form.destination')}
            </chakra.label>
            <NativeSelect.Root maxW="md">
              <NativeSelect.Field
                id="backup-location"
                value={location}
                onChange={(e) => {
                  setLocationId(e.target.value);
                  setSources(new Set());
                }}
              >
                {(locations.data ?? []).map((l) => (
                  <option key={l.locationId} value={l.locationId}>
                    {l.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Stack>
        </Stack>
      ) : null}
      {step === 'sources' ? (
        <Stack gap="5">
          <SourcePicker
            tenantId={tenantId}
            locationId={location}
            application={application}
            selected={sources}
            onChange={setSources}
            {...(limit !== undefined ? { limit } : {})}
          />
          {sharepoint ? (
            <IncludeChoice
              parts={SITE_PARTS}
              value={include}
              onChange={setInclude}
              legend={t('backup:form.include.legend')}
              help={t('backup:form.include.help')}
              label={(part) => t(`backup:form.include.parts.${part}`)}
              error={touched ? includeError : null}
            />
          ) : null}
        </Stack>
      ) : null}
      {step === 'schedule' ? (
        <RecurrenceEditor
          value={recurrence}
          onChange={setRecurrence}
          {...(touched && errors.schedule ? { error: errors.schedule } : {})}
        />
      ) : null}
      {step === 'retention' ? <RetentionEditor value={retention} onChange={setRetention} /> : null}
      <Stack mt="4" gap="2">
        {touched && errors[step] && step !== 'schedule' && errors[step] !== includeError ? (
          <StatusAlert status="error">{errors[step]}</StatusAlert>
        ) : null}
        {saveError ? <StatusAlert status="error">{saveError}</StatusAlert> : null}
      </Stack>
    </FormDialog>
  );
}
