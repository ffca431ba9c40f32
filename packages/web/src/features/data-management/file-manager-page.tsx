import { HStack, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../components/ui/filter-select';
import { PageHeader } from '../../components/ui/page-header';
import { RequireTenant } from '../../shared/tenant';
import { Browser } from './file-manager/browser';
import { DEFAULT_RULE_DRAFT, type RuleDraft, ruleOf } from './file-manager/rule';
import { RuleEditor } from './file-manager/rule-editor';
import { SourceList } from './file-manager/source-list';
import { useFileManagerLocation } from './file-manager/use-file-manager-location';

/** The file manager: sites and OneDrives, their files with versions under a rule, clean-up of a selection. */
export function FileManagerPage() {
  const { t } = useTranslation();
  const { application, source, setApplication, chooseSource, leaveSource } = useFileManagerLocation();
  const [draft, setDraft] = useState<RuleDraft>(DEFAULT_RULE_DRAFT);
  const rule = ruleOf(draft);
  return (
    <>
      <PageHeader
        title={t('pages:fileManager')}
        description={t('dataManagement:chooseSource')}
        help="dataManagement.a1"
      />
      <RequireTenant>
        {(tenantId) => (
          <Stack gap="4">
            <HStack gap="3" wrap="wrap" align="flex-end">
              <FilterSelect
                label={t('backup:columns.application')}
                value={application}
                options={[
                  { value: 'sharepoint', label: t('dataManagement:sharepoint') },
                  { value: 'onedrive', label: t('dataManagement:onedrive') },
                ]}
                onChange={(v) => setApplication(v || application)}
              />
            </HStack>
            <RuleEditor draft={draft} onChange={setDraft} />
            {source ? (
              <Browser
                key={`${application}:${source.sourceId}`}
                tenantId={tenantId}
                application={application}
                source={source}
                rule={rule}
                onBack={leaveSource}
              />
            ) : (
              <SourceList tenantId={tenantId} application={application} onChoose={chooseSource} />
            )}
          </Stack>
        )}
      </RequireTenant>
    </>
  );
}
