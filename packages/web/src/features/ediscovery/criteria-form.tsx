import { Button, Checkbox, chakra, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../components/ui/filter-select';
import { useServerAction } from '../../offline/online';
import { locationsQuery, sourceNamesQuery } from '../../shared/api/queries';
import { useApi } from '../../shared/tenant';
import { KINDS } from './search-params';
import type { SearchState } from './use-search-state';

/** The search's criteria: the query, mail and/or Teams, a mailbox, a team and the dates sent. */
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
            all={t('ediscovery:allMailboxes')}
            options={[...(mailboxNames.data ?? new Map<string, string>())].map(([value, label]) => ({
              value,
              label,
            }))}
            onChange={form.setMailbox}
          />
          <FilterSelect
            label={t('ediscovery:team')}
            value={form.team}
            all={t('ediscovery:allTeams')}
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
      </Stack>
    </chakra.form>
  );
}
