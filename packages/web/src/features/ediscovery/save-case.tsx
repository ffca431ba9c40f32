import type { EdiscoverySearch } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { useApi } from '../../shared/tenant';
import { ediscoveryKeys } from './api/keys';

/**
 * Saves a search as a named case. The name typed stays when the dialog is cancelled, and is cleared
 * once the case is saved.
 */
export function SaveCase({
  tenantId,
  open,
  search,
  onClose,
}: {
  tenantId: string;
  open: boolean;
  /** The search to save, read when saving. */
  search: () => EdiscoverySearch;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [caseName, setCaseName] = useState('');
  const [caseTouched, setCaseTouched] = useState(false);
  const check = useValidator();
  const caseNameError = check(caseName, rules.required(), rules.maxLength(120));
  const save = useMutation({
    mutationFn: () => api.apollo.ediscovery.createCase({ tenantId, body: { name: caseName.trim(), search: search() } }),
    onSuccess: (c) => {
      onClose();
      setCaseName('');
      setCaseTouched(false);
      showToast('success', t('ediscovery:caseSaved', { name: c.name }));
      void queryClient.invalidateQueries({ queryKey: ediscoveryKeys.cases(tenantId) });
    },
  });
  return (
    <ConfirmDialog
      open={open}
      title={t('ediscovery:saveCase')}
      confirmLabel={t('common:save')}
      pending={save.isPending}
      onConfirm={() => {
        setCaseTouched(true);
        if (!caseNameError) save.mutate();
      }}
      onCancel={() => {
        onClose();
        setCaseTouched(false);
      }}
    >
      <TextField
        label={t('ediscovery:caseName')}
        value={caseName}
        maxLength={120}
        onChange={(e) => setCaseName(e.target.value)}
        error={caseNameError}
        showError={caseTouched || caseName.length > 0}
      />
    </ConfirmDialog>
  );
}
