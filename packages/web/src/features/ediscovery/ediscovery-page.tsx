import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { RequireTenant } from '../../shared/tenant';
import { Cases } from './cases';
import { CriteriaForm } from './criteria-form';
import { ItemViewer } from './item-viewer';
import { RestoreMail } from './restore-mail';
import { ResultsTable } from './results-table';
import { SaveCase } from './save-case';
import { useSearchState } from './use-search-state';

function Search({ tenantId }: { tenantId: string }) {
  const state = useSearchState(tenantId);
  const { chosen, previewing } = state;
  return (
    <Stack gap="5">
      <CriteriaForm tenantId={tenantId} form={state.form} searching={state.results.isFetching} />
      <ResultsTable state={state} />
      <Cases tenantId={tenantId} onOpen={state.openCase} />
      {state.restoring ? (
        <RestoreMail
          tenantId={tenantId}
          hits={[...chosen.values()].filter((h) => h.kind === 'mail')}
          onClose={(done) => {
            state.setRestoring(false);
            if (done) state.setChosen(new Map());
          }}
        />
      ) : null}
      {previewing ? (
        <ItemViewer tenantId={tenantId} hit={previewing} onClose={() => state.setPreviewing(null)} />
      ) : null}
      <SaveCase tenantId={tenantId} open={state.saving} search={state.toSave} onClose={() => state.setSaving(false)} />
    </Stack>
  );
}

/** eDiscovery: search archived mail and Teams messages, preview, cases and their export. */
export function EdiscoveryPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:ediscovery')} description={t('ediscovery:description')} help="ediscovery" />
      <RequireTenant>{(tenantId) => <Search tenantId={tenantId} />}</RequireTenant>
    </>
  );
}
