import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An id a person rarely reads but sometimes needs (a tenant ID for Microsoft's support): not shown as
 * text among names, but copied on demand. Its accessible name says what is copied; "Copied" answers.
 */
export function CopyId({ value, what }: { value: string; what: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Button size="xs" variant="outline" onClick={() => void copy()} aria-label={`${t('common:copy')}: ${what}`}>
      <span aria-live="polite">{copied ? t('common:copied') : t('common:copy')}</span>
    </Button>
  );
}
