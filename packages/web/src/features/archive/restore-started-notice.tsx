import { chakra, Stack } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';

/** What a page says once a restore job from the archive is made: what it restores, and where to follow it. */
export function RestoreStartedNotice({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <StatusAlert status="success">
      <Stack gap="1" data-testid="restore-started">
        <span>{text}</span>
        <Link to="/backup-and-restore/job-monitor" search={{ type: 'restore' }}>
          <chakra.span textDecoration="underline">{t('archiveBrowse:followInMonitor')}</chakra.span>
        </Link>
      </Stack>
    </StatusAlert>
  );
}
