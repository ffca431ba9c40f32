import { Button, Checkbox, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { NotificationSettings } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { useServerAction } from '../../offline/online';
import { accountKeys } from './api/keys';
import { notificationsQuery } from './api/queries';

const FIELDS = ['jobFailed', 'jobFinished', 'dailySummary', 'weeklyReport', 'licenseExpiry'] as const;

/** The signed-in user's notification settings (a tab of /account/settings); needs no selected worker. */
export function NotificationSettingsForm() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const queryClient = useQueryClient();
  const settings = useQuery(notificationsQuery(api));
  const [draft, setDraft] = useState<NotificationSettings | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);
  const changed = !!draft && !!settings.data && FIELDS.some((f) => draft[f] !== settings.data?.[f]);
  const saveAction = useServerAction(!changed);
  const save = useMutation({
    mutationFn: (body: NotificationSettings) => api.legacy.user.updateNotifications({ body }),
    onSuccess: (data) => {
      queryClient.setQueryData(accountKeys.notifications(), data);
      showToast('success', t('settings:saved'));
    },
  });

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
            save.mutate(draft);
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
            {changed ? (
              <Text fontSize="sm" color="fg.warning" aria-live="polite" data-testid="unsaved">
                {t('account:unsaved')}
              </Text>
            ) : null}
            <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={save.isPending} {...saveAction}>
              {t('common:save')}
            </Button>
          </Stack>
        </form>
      )}
    </>
  );
}
