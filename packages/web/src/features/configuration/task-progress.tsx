import { Progress, Stack, Text } from '@chakra-ui/react';
import type { ProvisioningTask } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../shared/tenant';
import { provisioningTaskQuery, taskEnded } from './api/queries';

/** Follows a provisioning task until it ends, with its progress. */
export function TaskProgress({ task, name, onEnd }: { task: ProvisioningTask; name: string; onEnd: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const ended = useRef(false);
  const status = useQuery(
    provisioningTaskQuery(api, task, (now) => {
      if (taskEnded(now) && !ended.current) {
        ended.current = true;
        onEnd();
      }
    }),
  );
  const s = status.data;
  const label = t('configuration:taskTitle', { kind: t(`configuration:taskKinds.${s.kind}`), name });
  return (
    <Stack gap="1" borderWidth="1px" borderRadius="md" p="3" data-testid="task-progress" aria-live="polite">
      <Text fontWeight="medium">{label}</Text>
      <Progress.Root value={s.progress} colorPalette={s.status === 'failed' ? 'red' : 'blue'} size="sm">
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
        <Progress.Label srOnly>{label}</Progress.Label>
      </Progress.Root>
      <Text fontSize="sm" data-testid="task-status">
        {t(`configuration:taskStatus.${s.status}`)} · {s.progress} %{s.message ? ` · ${s.message}` : ''}
      </Text>
    </Stack>
  );
}
