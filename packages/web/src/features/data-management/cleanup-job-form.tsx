import { HStack, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { DataManagementApplication, Job, Recurrence } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { normaliseRecurrence, RecurrenceEditor, useRecurrenceError } from '../../components/ui/recurrence-editor';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { failureText } from '../../errors/api-errors';
import { locationsQuery, useSourceNames } from '../../shared/api/queries';
import { SourcePicker } from '../../shared/jobs/source-picker';
import { useApi } from '../../shared/tenant';
import { useSaveCleanupJob } from './api/mutations';
import { CLEANUP_APPLICATIONS } from './areas';
import { COUNT_RULES, DATE_RULES, DEFAULT_RULE_DRAFT, type RuleDraft, ruleOf } from './file-manager/rule';
import { RuleEditor } from './file-manager/rule-editor';

/** The workloads whose file versions a clean-up job removes. */

/** A stored rule as the rule editor edits it. */
function draftOf(job: Job | undefined): RuleDraft {
  const rule = job?.cleanupRule;
  if (!rule) return DEFAULT_RULE_DRAFT;
  return rule.kind === 'keepNewest'
    ? { kind: 'keepNewest', count: String(rule.count), date: '' }
    : { kind: 'olderThan', count: DEFAULT_RULE_DRAFT.count, date: rule.date.slice(0, 10) };
}

/**
 * The form of a clean-up job: its name, sites or OneDrives (the workload fixed once created), the
 * rule (keep the newest N versions, or remove those older than a day), and the schedule. A job the
 * file manager made for chosen files and folders keeps them: its one site and paths are said, not
 * edited here.
 */
export function CleanupJobForm({ tenantId, job, onClose }: { tenantId: string; job?: Job; onClose: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const [application, setApplication] = useState<DataManagementApplication>(
    job?.application === 'onedrive' ? 'onedrive' : 'sharepoint',
  );
  const [name, setName] = useState(job?.name ?? '');
  const [sources, setSources] = useState<Set<string>>(new Set(job?.sources ?? []));
  const [draft, setDraft] = useState<RuleDraft>(draftOf(job));
  const [recurrence, setRecurrence] = useState<Recurrence>(job?.recurrence ?? { kind: 'weekly', hours: [2] });
  const [touched, setTouched] = useState(false);
  const check = useValidator();
  const recurrenceError = useRecurrenceError();
  const locationId = locations.data?.[0]?.locationId ?? '';
  const sourceName = useSourceNames(tenantId, locationId, application);
  const paths = job?.paths ?? [];

  const nameError = check(name, rules.required(), rules.maxLength(120));
  const sourcesError = check(sources, rules.minItems());
  const rule = ruleOf(draft);
  const ruleProblem =
    draft.kind === 'keepNewest' ? check(draft.count, ...COUNT_RULES) : check(draft.date, ...DATE_RULES);
  const scheduleError = recurrenceError(recurrence);
  // The first problem in words under the form; the rule's and the schedule's are also said where they are.
  const problem =
    nameError ??
    sourcesError ??
    (ruleProblem ? t('cleanupJobs:ruleInvalid', { problem: ruleProblem }) : null) ??
    scheduleError;

  const save = useSaveCleanupJob(api, tenantId, job, (saved) => {
    showToast('success', t(job ? 'cleanupJobs:updated' : 'cleanupJobs:created', { name: saved.name }));
    onClose();
  });
  const failure = save.error ? failureText(t, t('backup:form.failed'), save.error) : null;

  return (
    <FormDialog
      title={job ? t('cleanupJobs:editTitle') : t('cleanupJobs:createTitle')}
      formId="cleanup-job-form"
      onSubmit={() => {
        setTouched(true);
        // A valid rule is there whenever nothing is wrong: its problem is one of the form's.
        if (!problem && rule)
          save.mutate({
            name: name.trim(),
            sources: [...sources],
            cleanupRule: rule,
            recurrence: normaliseRecurrence(recurrence),
            application,
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
        <RadioGroup.Root
          value={application}
          disabled={!!job}
          onValueChange={(e) => {
            setApplication(e.value === 'onedrive' ? 'onedrive' : 'sharepoint');
            setSources(new Set());
          }}
          aria-label={t('cleanupJobs:application')}
        >
          <Text fontWeight="medium" mb="2">
            {t('cleanupJobs:application')}
          </Text>
          <HStack gap="6" wrap="wrap">
            {CLEANUP_APPLICATIONS.map((a) => (
              <RadioGroup.Item key={a} value={a}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{t(`backup:applications.${a}`)}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </HStack>
        </RadioGroup.Root>
        {paths.length > 0 ? (
          <Stack gap="1" data-testid="cleanup-paths">
            <Text fontWeight="medium">{[...sources].map(sourceName).join(', ')}</Text>
            <Text fontSize="sm" color="fg.muted">
              {t('cleanupJobs:paths', { count: paths.length })}
            </Text>
          </Stack>
        ) : (
          <SourcePicker
            tenantId={tenantId}
            locationId={locationId}
            application={application}
            selected={sources}
            onChange={setSources}
            coverage={false}
          />
        )}
        <RuleEditor draft={draft} onChange={setDraft} />
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
