import { Button, Checkbox, Field, HStack, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { NotificationSettings } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { useServerAction } from '../../offline/online';
import { useSaveNotifications, useSendTestNotification } from './api/mutations';
import { notificationsQuery } from './api/queries';

const FIELDS = ['jobFailed', 'jobFinished', 'dailySummary', 'weeklyReport', 'licenseExpiry'] as const;

type MailLanguage = NonNullable<NotificationSettings['language']>;

/**
 * The signed-in user's notification settings (a tab of /account/settings); needs no selected worker.
 * The mails' language shows the interface's language until one is saved, and is saved with the rest.
 * The test mail goes where the saved settings say, so it waits while changes are unsaved.
 */
export function NotificationSettingsForm() {
  const { t, i18n } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const settings = useQuery(notificationsQuery(api));
  const [draft, setDraft] = useState<NotificationSettings | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);
  const uiLanguage: MailLanguage = i18n.language === 'de' ? 'de' : 'en';
  const changed =
    !!draft &&
    !!settings.data &&
    (FIELDS.some((f) => draft[f] !== settings.data?.[f]) || draft.language !== settings.data.language);
  const saveAction = useServerAction(!changed);
  const testAction = useServerAction(changed);
  const sendTest = useSendTestNotification(api);
  const save = useSaveNotifications(api, () => showToast('success', t('settings:saved')));

  return (
    <>
      <Text color="fg.muted" mb="4">
        {t('settings:intro')}
      </Text>
      {settings.isError && !draft ? (
        <Stack gap="2" maxW="md">
          <StatusAlert status="error">{t('account:settingsFailed')}</StatusAlert>
          <Button alignSelf="flex-start" size="sm" onClick={() => void settings.refetch()}>
            {t('common:retry')}
          </Button>
        </Stack>
      ) : !draft ? (
        <Stack gap="3" maxW="md">
          {FIELDS.map((f) => (
            <Skeleton key={f} height="6" />
          ))}
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ ...draft, language: draft.language ?? uiLanguage });
          }}
        >
          <Stack gap="3" maxW="md">
            {FIELDS.map((field) => (
              <Checkbox.Root
                key={field}
                checked={draft[field]}
                onCheckedChange={(e) => setDraft({ ...draft, [field]: e.checked === true })}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Stack gap="0">
                  <Checkbox.Label>{t(`settings:${field}`)}</Checkbox.Label>
                  <Text fontSize="xs" color="fg.muted">
                    {t(`account:settingsHelp.${field}`)}
                  </Text>
                </Stack>
              </Checkbox.Root>
            ))}
            <Field.Root maxW="xs">
              <Field.Label>{t('settings:language')}</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  value={draft.language ?? uiLanguage}
                  onChange={(event) =>
                    setDraft({ ...draft, language: event.currentTarget.value === 'de' ? 'de' : 'en' })
                  }
                  data-testid="mail-language"
                >
                  <option value="en">{t('common:english')}</option>
                  <option value="de">{t('common:german')}</option>
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            {changed ? (
              <Text fontSize="sm" color="fg.warning" aria-live="polite" data-testid="unsaved">
                {t('account:unsaved')} {t('settings:testNeedsSave')}
              </Text>
            ) : null}
            <HStack gap="3" wrap="wrap">
              <Button type="submit" colorPalette="blue" loading={save.isPending} {...saveAction}>
                {t('common:save')}
              </Button>
              <Button
                type="button"
                variant="outline"
                loading={sendTest.isPending}
                onClick={() =>
                  sendTest.mutate(undefined, {
                    onSuccess: ({ to }) => showToast('success', t('settings:testSent', { to })),
                  })
                }
                data-testid="send-test-mail"
                {...testAction}
              >
                {t('settings:test')}
              </Button>
            </HStack>
          </Stack>
        </form>
      )}
    </>
  );
}
