import { NativeSelect } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../i18n';

/** English or German; the choice is kept in local storage by the i18n setup. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  return (
    <NativeSelect.Root size="sm" width="auto">
      <NativeSelect.Field
        aria-label={t('language')}
        value={i18n.language}
        onChange={(event) => void switchLanguage(i18n, event.currentTarget.value === 'de' ? 'de' : 'en')}
        data-testid="language-switch"
      >
        <option value="en">{t('english')}</option>
        <option value="de">{t('german')}</option>
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
