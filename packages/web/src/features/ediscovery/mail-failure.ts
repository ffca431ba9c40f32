import { ApiError } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { messageKeyOf } from '../../errors/api-errors';

/** Why reading or restoring mail failed, in the reader's words: a 403 is the proxy right it needs. */
export function useMailFailure() {
  const { t } = useTranslation();
  return (error: unknown) =>
    !error
      ? null
      : error instanceof ApiError && error.status === 403
        ? t('ediscovery:needsProxyRight')
        : t(`apiErrors:${messageKeyOf(error)}`);
}
