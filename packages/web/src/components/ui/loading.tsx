import { Spinner, type SpinnerProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** A spinner that screen readers announce as a loading status. */
export function Loading(props: SpinnerProps) {
  const { t } = useTranslation('common');
  return <Spinner role="status" aria-label={t('loading')} {...props} />;
}
