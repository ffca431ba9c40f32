import type { Application, Job, JobType } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { locationsQuery } from '../api/queries';
import { useApi } from '../tenant';
import { type ListRoute, useUrlFilter, useUrlListState } from '../url-state';
import { jobKeys } from './api/keys';
import { jobListQuery, usedApplicationsQuery } from './api/queries';
import { waitForTask } from './job-actions';
import { JOBS_LIST, jobListQueryOf } from './list-search';

export type JobAction = 'start' | 'stop' | 'remove';
/** A start, stop or removal waiting for its confirmation. */
export interface PendingAction {
  job: Job;
  action: JobAction;
}

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
  const queryClient = useQueryClient();
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

  const act = useMutation({
    mutationFn: async ({ job, action }: PendingAction) => {
      // A failure is said in the action's own words (onError), not in the generic toast as well.
      const quiet = { disableToast: true } as const;
      if (action === 'remove') {
        await api.apollo.jobs.delete({ tenantId, jobId: job.jobId }, quiet);
        return { job, action, task: null };
      }
      const task =
        action === 'start'
          ? await api.apollo.jobs.start({ tenantId, jobId: job.jobId }, quiet)
          : await api.apollo.jobs.stop({ tenantId, jobId: job.jobId }, quiet);
      showToast('info', t(action === 'start' ? 'backup:startRequested' : 'backup:stopRequested', { name: job.name }));
      // Seen at once, not once a worker took the run: the dialog closes, the lists show the queued run
      // and, for a start, the list's notice links to it in the monitor.
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) });
      if (action === 'start') {
        // The newest run first: a queued one has not started (nulls first).
        const newest = await api.apollo.monitoring
          .list({ tenantId, query: { jobId: job.jobId, sort: 'started', order: 'desc', pageSize: 1 } }, quiet)
          .catch(() => null);
        const run = newest?.items[0];
        setStarted(run ? { job, reportId: run.reportId } : null);
      }
      return { job, action, task: await waitForTask(api, tenantId, task) };
    },
    onSuccess: ({ job, action, task }) => {
      setPending(null);
      if (action === 'remove') showToast('success', t('backup:removed', { name: job.name }));
      else if (task?.status === 'failed')
        showToast('error', t(action === 'start' ? 'backup:startFailed' : 'backup:stopFailed', { name: job.name }));
      else if (task?.status === 'succeeded')
        showToast('success', t(action === 'start' ? 'backup:started' : 'backup:stopped', { name: job.name }));
      void queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) });
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
