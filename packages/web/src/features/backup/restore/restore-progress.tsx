import { Button, Card, Heading, HStack, Progress, Text } from '@chakra-ui/react';
import type { Job } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/status-badge';
import { useServerAction } from '../../../offline/online';

/** The restore job made: its status and progress, its archive once a download has finished, and another restore. */
export function RestoreProgress({
  job,
  downloading,
  onDownload,
  onNew,
}: {
  job: Job;
  downloading: boolean;
  onDownload: () => void;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  const serverAction = useServerAction();
  return (
    <Card.Root maxW="2xl">
      <Card.Body gap="3">
        <Heading as="h2" size="md">
          {job.name}
        </Heading>
        <HStack gap="3">
          <StatusBadge status={job.status} />
          <Progress.Root value={job.progress} size="sm" flex="1" aria-label={t('backup:columns.progress')}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="sm" data-testid="restore-progress">
            {job.progress}%
          </Text>
        </HStack>
        <HStack gap="2" wrap="wrap">
          {job.status === 'finished' && job.restore?.target === 'download' ? (
            <Button colorPalette="blue" onClick={onDownload} loading={downloading} {...serverAction}>
              {t('backup:downloadArchive')}
            </Button>
          ) : null}
          <Button variant="outline" onClick={onNew}>
            {t('backup:newRestore')}
          </Button>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
