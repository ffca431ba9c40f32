import { ApiError } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import type { en } from '../../i18n/en';

/** An action with a failure text of its own (`configuration:failures.<action>`). */
export type FailureAction = keyof (typeof en)['configuration']['failures'];

/** The message of a failed call: the catalogue's text under the action's own failure. */
export function useFailure() {
  const { t } = useTranslation();
  return (error: unknown, action: FailureAction) =>
    error
      ? `${t(`configuration:failures.${action}`)}${error instanceof ApiError ? ` ${t(`apiErrors:${error.messageKey}`)}` : ''}`
      : null;
}
