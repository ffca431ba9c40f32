import { Alert } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { en } from '../../i18n/en';
import { PageHeader } from './page-header';

export type PageKey = keyof (typeof en)['pages'];

/** A page of an area that later work fills: its title, and an honest note that it is not there yet. */
export function FeaturePage({ page }: { page: PageKey }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(`pages:${page}`)} />
      <Alert.Root status="info" data-testid="not-available">
        <Alert.Indicator />
        <Alert.Title>{t('common:notAvailableYet')}</Alert.Title>
      </Alert.Root>
    </>
  );
}
