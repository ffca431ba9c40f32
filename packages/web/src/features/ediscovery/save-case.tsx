import { Stack, Tabs, Text } from '@chakra-ui/react';
import { ApiError, EDISCOVERY_LIMITS, type EdiscoverySearch } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { failureText } from '../../errors/api-errors';
import { locationsQuery } from '../../shared/api/queries';
import { SourcePicker } from '../../shared/jobs/source-picker';
import { useApi } from '../../shared/tenant';
import { useSaveCase } from './api/mutations';

type Lists = { mailboxes: Set<string>; teams: Set<string>; chats: Set<string> };
const LISTS = ['mailboxes', 'teams', 'chats'] as const;

/** The search as the case keeps it: its criteria and the custodians chosen (none: no lists). */
function caseSearch(search: EdiscoverySearch, lists: Lists): EdiscoverySearch {
  const { mailboxes: _m, teams: _t, chats: _c, page: _p, pageSize: _s, ...criteria } = search;
  const named = LISTS.filter((k) => lists[k].size > 0);
  return { ...criteria, ...Object.fromEntries(named.map((k) => [k, [...lists[k]]])) };
}

/**
 * Saves a search as a named case with its custodians: the mailboxes, teams and accounts whose chats it
 * searches and a legal hold keeps (those the search names are chosen to begin with). The name typed
 * stays when the dialog is cancelled, and is cleared once the case is saved.
 */
export function SaveCase({
  tenantId,
  open,
  search,
  onClose,
}: {
  tenantId: string;
  open: boolean;
  /** The search to save, read when the dialog opens and when saving. */
  search: () => EdiscoverySearch;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const locationId = locations.data?.[0]?.locationId ?? '';
  const [caseName, setCaseName] = useState('');
  const [caseTouched, setCaseTouched] = useState(false);
  const [lists, setLists] = useState<Lists>({ mailboxes: new Set(), teams: new Set(), chats: new Set() });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the search is read once, as the dialog opens.
  useEffect(() => {
    if (!open) return;
    const s = search();
    setLists({ mailboxes: new Set(s.mailboxes), teams: new Set(s.teams), chats: new Set(s.chats) });
  }, [open]);
  const check = useValidator();
  const caseNameError = check(caseName, rules.required(), rules.maxLength(120));
  const over = LISTS.some((k) => lists[k].size > EDISCOVERY_LIMITS.idsPerList);
  const save = useSaveCase(api, tenantId, (c) => {
    onClose();
    setCaseName('');
    setCaseTouched(false);
    showToast('success', t('ediscovery:caseSaved', { name: c.name }));
  });
  if (!open) return null;
  // A taken name is refused without a code; a custodian not the tenant's with 404.
  const failure = !save.error
    ? null
    : save.error instanceof ApiError && save.error.status === 409 && !save.error.code
      ? `${t('ediscovery:caseNotSaved')} ${t('ediscovery:nameTaken')}`
      : failureText(t, t('ediscovery:caseNotSaved'), save.error, t('ediscovery:custodians.notTenants'));
  const count = lists.mailboxes.size + lists.teams.size + lists.chats.size;
  const picker = (key: (typeof LISTS)[number]) => (
    <SourcePicker
      tenantId={tenantId}
      locationId={locationId}
      application={key === 'teams' ? 'teams' : 'exchange'}
      {...(key === 'chats' ? { unit: t('ediscovery:custodians.chatUnit') } : {})}
      coverage={false}
      limit={EDISCOVERY_LIMITS.idsPerList}
      selected={lists[key]}
      onChange={(next) => setLists((current) => ({ ...current, [key]: next }))}
    />
  );
  return (
    <FormDialog
      title={t('ediscovery:saveCase')}
      formId="save-case-form"
      submitLabel={t('common:save')}
      pending={save.isPending}
      onSubmit={() => {
        setCaseTouched(true);
        if (!caseNameError && !over) save.mutate({ name: caseName.trim(), search: caseSearch(search(), lists) });
      }}
      onClose={() => {
        onClose();
        setCaseTouched(false);
        save.reset();
      }}
    >
      <Stack gap="4">
        <TextField
          label={t('ediscovery:caseName')}
          value={caseName}
          maxLength={120}
          onChange={(e) => setCaseName(e.target.value)}
          error={caseNameError}
          showError={caseTouched || caseName.length > 0}
        />
        <Stack gap="1">
          <Text as="h3" fontWeight="semibold">
            {t('ediscovery:custodians.title')}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {t('ediscovery:custodians.pickExplain')}
          </Text>
          <Text fontSize="sm" data-testid="custodian-count" aria-live="polite">
            {count === 0 ? t('ediscovery:custodians.noneChosen') : t('ediscovery:custodians.chosen', { count })}
          </Text>
        </Stack>
        <Tabs.Root defaultValue="mailboxes" variant="line" lazyMount>
          <Tabs.List flexWrap="wrap">
            {LISTS.map((k) => (
              <Tabs.Trigger key={k} value={k}>
                {t(`ediscovery:custodians.tabs.${k}`, { n: lists[k].size })}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {LISTS.map((k) => (
            <Tabs.Content key={k} value={k}>
              {k === 'chats' ? (
                <Text fontSize="sm" color="fg.muted" mb="2">
                  {t('ediscovery:custodians.chatsHelp')}
                </Text>
              ) : null}
              {picker(k)}
            </Tabs.Content>
          ))}
        </Tabs.Root>
        {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
      </Stack>
    </FormDialog>
  );
}
