import { ApiError } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { messageKeyOf } from '../../errors/api-errors';

/** Why reading, downloading or restoring archived mail failed, in words: a 403 is the proxy right it needs. */
export function useMailReadFailure() {
  const { t } = useTranslation();
  return (error: unknown) =>
    !error
      ? null
      : error instanceof ApiError && error.status === 403
        ? t('archiveBrowse:needsProxyRight')
        : t(`apiErrors:${messageKeyOf(error)}`);
}
