import type { Application, Job, JobType } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { locationsQuery } from '../api/queries';
import { useApi } from '../tenant';
import { type ListRoute, useUrlFilter, useUrlListState } from '../url-state';
import { type PendingAction, useJobAction } from './api/mutations';
import { jobListQuery, usedApplicationsQuery } from './api/queries';
import { JOBS_LIST, jobListQueryOf } from './list-search';

/** A job just started and its run, which the list links to in its monitor. */
interface StartedRun {
  job: Job;
  reportId: string;
}

/** Failures to start, stop or delete a job: each action's own text. */
const ACTION_FAILED = {
  start: 'backup:startFailed',
  stop: 'backup:stopFailed',
  remove: 'backup:removeFailed',
} as const;

/** The jobs lists' routes: their address keeps the list and its application filter. */
export type JobsRoute = ListRoute<'application'>;

/** What a jobs list needs of its area. */
interface ListArea {
  type: JobType;
  applications: readonly Application[];
  trialLimited: boolean;
  notFound?: string;
}

/**
 * The state of a jobs list: its page, sort, search and application filter (in the address), the open
 * form and the action waiting for its confirmation; the jobs, the locations and which applications
 * already have a job; and the start, stop and removal of a job with their toasts.
 */
export function useJobsList(from: JobsRoute, tenantId: string, trial: boolean, area: ListArea) {
  const { t } = useTranslation();
  const api = useApi();
  const [state, setState] = useUrlListState(from, JOBS_LIST);
  const [application, setApplication] = useUrlFilter<Application | ''>(from, 'application', '');
  const [form, setForm] = useState<{ job?: Job } | null>(null);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [started, setStarted] = useState<StartedRun | null>(null);
  const locations = useQuery(locationsQuery(api, tenantId));
  const jobs = useQuery(jobListQuery(api, tenantId, jobListQueryOf(area.type, state, application)));
  const used = useQuery(usedApplicationsQuery(api, tenantId, area.type));
  const usedApplications: ReadonlySet<string> = used.data ?? new Set<string>();
  const limited = trial && area.trialLimited;
  const allUsed = limited && area.applications.every((a) => usedApplications.has(a));

  const act = useJobAction(tenantId, {
    onRequested: ({ job, action }) => {
      showToast('info', t(action === 'start' ? 'backup:startRequested' : 'backup:stopRequested', { name: job.name }));
      // The dialog closes and, for a start, the list's notice links to the queued run in the monitor.
      setPending(null);
    },
    onRunQueued: (job, run) => setStarted(run ? { job, reportId: run.reportId } : null),
    onSuccess: ({ job, action, task }) => {
      setPending(null);
      if (action === 'remove') showToast('success', t('backup:removed', { name: job.name }));
      else if (task?.status === 'failed')
        showToast('error', t(action === 'start' ? 'backup:startFailed' : 'backup:stopFailed', { name: job.name }));
      else if (task?.status === 'succeeded')
        showToast('success', t(action === 'start' ? 'backup:started' : 'backup:stopped', { name: job.name }));
    },
    onError: (error, { job, action }) => {
      setPending(null);
      showToast('error', failureText(t, t(ACTION_FAILED[action], { name: job.name }), error, area.notFound));
    },
  });

  return {
    state,
    setState,
    application,
    setApplication,
    form,
    setForm,
    pending,
    setPending,
    started,
    setStarted,
    locations,
    jobs,
    usedApplications,
    limited,
    allUsed,
    act,
  };
}
