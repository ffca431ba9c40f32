import type { EdiscoveryCase, EdiscoveryHit, EdiscoverySearch } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { rules, useValidator } from '../../components/ui/validation';
import { useApi } from '../../shared/tenant';
import { useUrlListState } from '../../shared/url-state';
import { casesQuery, searchQuery } from './api/queries';
import {
  CRITERIA_PARAMS,
  criteriaSearch,
  EDISCOVERY_LIST,
  type EdiscoveryParams,
  KINDS,
  type Kind,
  kindsOf,
  paramsSearch,
  UNNAMED_KINDS,
} from './search-params';

const route = getRouteApi('/_app/_worker/ediscovery/portal');

/** The address without the search made (criteria, opened case) and back on the first page. */
function withoutSearch(previous: EdiscoveryParams): EdiscoveryParams {
  const next = { ...previous };
  for (const name of [...CRITERIA_PARAMS, 'page'] as const) delete next[name];
  return next;
}

/**
 * The state of the eDiscovery page. The search made (its criteria, or the case opened) and the page of
 * its results are kept in the address, so that a reload, Back or a shared link shows the same hits; the
 * criteria being typed, the chosen hits and the open dialogs are the page's own.
 */
export function useSearchState(tenantId: string) {
  const api = useApi();
  const navigate = route.useNavigate();
  const params = route.useSearch();
  const [list, setList] = useUrlListState(route.id, EDISCOVERY_LIST);
  const cases = useQuery(casesQuery(api, tenantId));
  const caseId = params.case ?? '';
  const openedCase = caseId ? cases.data?.find((c) => c.caseId === caseId) : undefined;
  // The case opened last, so that its results stay on the page when it is removed meanwhile.
  const [lastCase, setLastCase] = useState<EdiscoveryCase | null>(openedCase ?? null);
  useEffect(() => {
    if (openedCase) setLastCase(openedCase);
  }, [openedCase]);

  // The form's criteria: those of the search the address holds, or of its case when it is known.
  const [draft, setDraft] = useState(() => (caseId ? (openedCase?.search.query ?? '') : (params.q ?? '')));
  const [kinds, setKinds] = useState<Kind[]>(() =>
    caseId
      ? ((openedCase?.search.kinds as Kind[] | undefined) ?? [...UNNAMED_KINDS])
      : (kindsOf(params.kinds) ?? [...KINDS]),
  );
  const [from, setFrom] = useState(() => (caseId ? '' : (params.from ?? '')));
  const [to, setTo] = useState(() => (caseId ? '' : (params.to ?? '')));
  const [mailbox, setMailbox] = useState(() => (caseId ? '' : (params.mailbox ?? '')));
  const [team, setTeam] = useState(() => (caseId ? '' : (params.team ?? '')));

  const [previewing, setPreviewing] = useState<EdiscoveryHit | null>(null);
  const [chosen, setChosen] = useState(new Map<string, EdiscoveryHit>());
  const [restoring, setRestoring] = useState(false);
  const [saving, setSaving] = useState(false);

  const check = useValidator();
  const fromError = check(from, rules.date());
  // "To" before "From" is refused on "To": no search is sent with it, the last results stay.
  const toError = check(to, rules.date(), rules.notBefore(from));

  const paramsText = JSON.stringify(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the parameters' text is their identity.
  const madeSearch = useMemo(() => paramsSearch(params), [paramsText]);
  const caseSearch = openedCase ?? (lastCase?.caseId === caseId ? lastCase : undefined);
  const search: EdiscoverySearch | null = caseId ? (caseSearch?.search ?? null) : madeSearch;
  const results = useQuery(searchQuery(api, tenantId, search, list.page, list.pageSize));

  const write = useCallback(
    (change: (previous: EdiscoveryParams) => EdiscoveryParams) =>
      void navigate({ search: (previous) => change(previous), replace: true }),
    [navigate],
  );

  const criteria = (): EdiscoverySearch => criteriaSearch({ query: draft, kinds, mailbox, team, from, to });

  /** Searches with the form's criteria, from the first page of hits. */
  const submit = () => {
    if (fromError || toError || kinds.length === 0) return;
    const query = draft.trim();
    write((previous) => ({
      ...withoutSearch(previous),
      ...(query ? { q: query } : {}),
      kinds: KINDS.filter((k) => kinds.includes(k)).join(','),
      ...(mailbox ? { mailbox } : {}),
      ...(team ? { team } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    }));
  };

  /** Shows a case's saved search, from the first page of hits, and puts its query in the form. */
  const openCase = (c: EdiscoveryCase) => {
    setDraft(c.search.query);
    setKinds((c.search.kinds as Kind[] | undefined) ?? [...UNNAMED_KINDS]);
    setLastCase(c);
    write((previous) => ({ ...withoutSearch(previous), case: c.caseId }));
  };

  const toggleKind = (k: Kind, on: boolean) =>
    setKinds((current) => (on ? [...new Set([...current, k])] : current.filter((x) => x !== k)));

  return {
    form: {
      draft,
      setDraft,
      kinds,
      toggleKind,
      from,
      setFrom,
      fromError,
      to,
      setTo,
      toError,
      mailbox,
      setMailbox,
      team,
      setTeam,
      submit,
    },
    /** The search made, whose hits are shown; null before any. */
    search,
    /** What a new case saves: the search made, or the form's criteria. */
    toSave: () => search ?? criteria(),
    results,
    list,
    setList,
    openCase,
    previewing,
    setPreviewing,
    chosen,
    setChosen,
    restoring,
    setRestoring,
    saving,
    setSaving,
  };
}

export type SearchState = ReturnType<typeof useSearchState>;
