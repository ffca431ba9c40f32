import { Button, Checkbox, chakra, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../components/ui/filter-select';
import { useServerAction } from '../../offline/online';
import { locationsQuery, sourceNamesQuery } from '../../shared/api/queries';
import { M365FailureAlert } from '../../shared/m365-failure';
import { useApi } from '../../shared/tenant';
import { KINDS } from './search-params';
import type { SearchState } from './use-search-state';

/**
 * The search's criteria: the query, mail and/or Teams, a mailbox, a team and the dates sent. The
 * mailbox and team filters say when they are loading, when none was found, and why they could not be
 * read.
 */
export function CriteriaForm({
  tenantId,
  form,
  searching,
}: {
  tenantId: string;
  form: SearchState['form'];
  /** A search is being read: the button says so. */
  searching: boolean;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const serverAction = useServerAction();
  const locations = useQuery(locationsQuery(api, tenantId));
  const locationId = locations.data?.[0]?.locationId ?? '';
  const mailboxNames = useQuery(sourceNamesQuery(api, tenantId, locationId, 'exchange'));
  const teamNames = useQuery(sourceNamesQuery(api, tenantId, locationId, 'teams'));
  // Mailboxes and teams are read through a storage location of the tenant: without one, none are.
  const noLocation = locations.isSuccess && !locationId;
  const loadingMailboxes = locations.isLoading || mailboxNames.isLoading;
  const loadingTeams = locations.isLoading || teamNames.isLoading;
  return (
    <chakra.form
      // The form's own messages, translated, rather than the browser's.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        form.submit();
      }}
    >
      <Stack gap="3">
        <HStack gap="2" align="flex-end">
          <Stack gap="1" flex="1">
            <chakra.label htmlFor="ediscovery-query" fontSize="sm" fontWeight="medium">
              {t('ediscovery:query')}
            </chakra.label>
            <Input
              id="ediscovery-query"
              type="search"
              value={form.draft}
              maxLength={1000}
              placeholder={t('ediscovery:placeholder')}
              onChange={(e) => form.setDraft(e.target.value)}
            />
          </Stack>
          <Button
            type="submit"
            colorPalette="blue"
            loading={searching}
            {...serverAction}
            disabled={serverAction.disabled || form.kinds.length === 0}
          >
            {t('ediscovery:search')}
          </Button>
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          {t('ediscovery:syntax')}
        </Text>
        <Stack direction={{ base: 'column', md: 'row' }} gap="4" align={{ md: 'center' }} flexWrap="wrap">
          {KINDS.map((k) => (
            <Checkbox.Root
              key={k}
              checked={form.kinds.includes(k)}
              onCheckedChange={(e) => form.toggleKind(k, e.checked === true)}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t(`ediscovery:kinds.${k}`)}</Checkbox.Label>
            </Checkbox.Root>
          ))}
          <FilterSelect
            label={t('ediscovery:mailbox')}
            value={form.mailbox}
            all={loadingMailboxes ? t('m365:filters.loadingMailboxes') : t('ediscovery:allMailboxes')}
            busy={loadingMailboxes}
            options={[...(mailboxNames.data ?? new Map<string, string>())].map(([value, label]) => ({
              value,
              label,
            }))}
            onChange={form.setMailbox}
          />
          <FilterSelect
            label={t('ediscovery:team')}
            value={form.team}
            all={loadingTeams ? t('m365:filters.loadingTeams') : t('ediscovery:allTeams')}
            busy={loadingTeams}
            options={[...(teamNames.data ?? new Map<string, string>())].map(([value, label]) => ({ value, label }))}
            onChange={form.setTeam}
          />
          <HStack gap="2" flexWrap="wrap" align="flex-start">
            <Field.Root width="auto" invalid={!!form.fromError}>
              <Field.Label fontSize="sm" fontWeight="normal">
                {t('ediscovery:dateFrom')}
              </Field.Label>
              <Input type="date" size="sm" w="auto" value={form.from} onChange={(e) => form.setFrom(e.target.value)} />
              <Field.ErrorText>{form.fromError}</Field.ErrorText>
            </Field.Root>
            <Field.Root width="auto" invalid={!!form.toError}>
              <Field.Label fontSize="sm" fontWeight="normal">
                {t('ediscovery:dateTo')}
              </Field.Label>
              <Input type="date" size="sm" w="auto" value={form.to} onChange={(e) => form.setTo(e.target.value)} />
              <Field.ErrorText>{form.toError}</Field.ErrorText>
            </Field.Root>
          </HStack>
        </Stack>
        <Stack gap="2" data-testid="filter-states">
          {noLocation ? (
            <Text fontSize="sm" color="fg.muted">
              {t('m365:filters.noLocation')}
            </Text>
          ) : null}
          {mailboxNames.isError ? (
            <M365FailureAlert
              title={t('m365:lists.exchange')}
              error={mailboxNames.error}
              onRetry={() => void mailboxNames.refetch()}
            />
          ) : mailboxNames.data?.size === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              {t('m365:filters.noMailboxes')}
            </Text>
          ) : null}
          {teamNames.isError ? (
            <M365FailureAlert
              title={t('m365:lists.teams')}
              error={teamNames.error}
              onRetry={() => void teamNames.refetch()}
            />
          ) : teamNames.data?.size === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              {t('m365:filters.noTeams')}
            </Text>
          ) : null}
        </Stack>
      </Stack>
    </chakra.form>
  );
}
