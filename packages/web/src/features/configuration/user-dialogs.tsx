/**
 * The dialogs of the users list: inviting a user, changing a user's role, deactivating and deleting
 * one after asking. A refusal (the caller's own account, the organisation's last active
 * administrator, a taken address) is said in the dialog, in the catalogue's words.
 */
import { RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { PortalUser } from '@compliance-portal/sdk';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { failureText } from '../../errors/api-errors';
import { useApi } from '../../shared/tenant';
import { useChangeRole, useDeleteUser, useInviteUser, useSetActive } from './api/mutations';

/** "Nothing was changed." and, for a refusal, why, in the catalogue's words. */
export function failureOf(t: TFunction, error: unknown, action?: string): string {
  return failureText(t, action ?? t('userAdmin:actionFailed'), error);
}

interface DialogProps {
  organisationId: string;
  onClose: () => void;
}

export function InviteUserDialog({ organisationId, onClose }: DialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const invite = useInviteUser(api, organisationId);
  const check = useValidator();
  const [touched, setTouched] = useState(false);
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const errors = {
    email: check(email, rules.required(), rules.email()),
    displayName: check(displayName, rules.required(), rules.maxLength(120)),
  };
  return (
    <FormDialog
      title={t('userAdmin:inviteTitle')}
      subtitle={
        <Text fontSize="sm" color="fg.muted">
          {t('userAdmin:inviteText')}
        </Text>
      }
      formId="invite-user"
      submitLabel={t('userAdmin:inviteButton')}
      pending={invite.isPending}
      onClose={onClose}
      onSubmit={() => {
        setTouched(true);
        if (errors.email || errors.displayName) return;
        invite.mutate(
          { email: email.trim(), displayName: displayName.trim() },
          {
            onSuccess: (user) => {
              showToast('success', t('userAdmin:invited', { email: user.email }));
              onClose();
            },
          },
        );
      }}
    >
      <Stack gap="3">
        <TextField
          label={t('userAdmin:email')}
          type="email"
          autoComplete="off"
          value={email}
          maxLength={254}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          showError={touched}
        />
        <TextField
          label={t('userAdmin:name')}
          value={displayName}
          maxLength={120}
          onChange={(e) => setDisplayName(e.target.value)}
          error={errors.displayName}
          showError={touched}
        />
        {invite.error ? (
          <StatusAlert status="error">{failureOf(t, invite.error, t('userAdmin:inviteFailed'))}</StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}

export function RoleDialog({ organisationId, user, onClose }: DialogProps & { user: PortalUser }) {
  const { t } = useTranslation();
  const api = useApi();
  const change = useChangeRole(api, organisationId);
  const [manager, setManager] = useState(user.ediscoveryManager);
  const role = t(`userAdmin:roles.${user.role}`);
  const options = [
    { value: 'plain', label: t('userAdmin:roleOptions.plain', { role }), hint: t('userAdmin:roleOptions.plainHint') },
    {
      value: 'manager',
      label: t('userAdmin:roleOptions.manager', { role }),
      hint: t('userAdmin:roleOptions.managerHint'),
    },
  ] as const;
  return (
    <FormDialog
      title={t('userAdmin:roleTitle', { name: user.displayName })}
      formId="change-role"
      submitLabel={t('userAdmin:saveRole')}
      pending={change.isPending}
      onClose={onClose}
      onSubmit={() => {
        if (manager === user.ediscoveryManager) {
          onClose();
          return;
        }
        change.mutate(
          { user, manager },
          {
            onSuccess: () => {
              showToast('success', t('userAdmin:roleChanged', { name: user.displayName }));
              onClose();
            },
          },
        );
      }}
    >
      <Stack gap="4">
        <Text fontSize="sm">{t('userAdmin:roleText')}</Text>
        <RadioGroup.Root
          value={manager ? 'manager' : 'plain'}
          onValueChange={(e) => setManager(e.value === 'manager')}
          aria-label={t('userAdmin:roleLabel')}
        >
          <Stack gap="3">
            {options.map((o) => (
              <RadioGroup.Item key={o.value} value={o.value} alignItems="flex-start">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>
                  <Text fontWeight="medium">{o.label}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    {o.hint}
                  </Text>
                </RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
        </RadioGroup.Root>
        {change.error ? (
          <StatusAlert status="error">{failureOf(t, change.error, t('userAdmin:roleUnchanged'))}</StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}

export function DeactivateUserDialog({ organisationId, user, onClose }: DialogProps & { user: PortalUser }) {
  const { t } = useTranslation();
  const api = useApi();
  const deactivate = useSetActive(api, organisationId);
  return (
    <ConfirmDialog
      open
      title={t('userAdmin:deactivateTitle', { name: user.displayName })}
      confirmLabel={t('userAdmin:deactivateButton')}
      destructive
      pending={deactivate.isPending}
      onConfirm={() =>
        deactivate.mutate(
          { user, active: false },
          {
            onSuccess: () => {
              showToast('success', t('userAdmin:deactivated', { name: user.displayName }));
              onClose();
            },
          },
        )
      }
      onCancel={onClose}
    >
      <Stack gap="3">
        <Text>{t('userAdmin:deactivateText', { name: user.displayName })}</Text>
        {deactivate.error ? <StatusAlert status="error">{failureOf(t, deactivate.error)}</StatusAlert> : null}
      </Stack>
    </ConfirmDialog>
  );
}

export function DeleteUserDialog({ organisationId, user, onClose }: DialogProps & { user: PortalUser }) {
  const { t } = useTranslation();
  const api = useApi();
  const remove = useDeleteUser(api, organisationId);
  return (
    <ConfirmDialog
      open
      title={t('userAdmin:deleteTitle', { name: user.displayName })}
      confirmLabel={t('userAdmin:deleteButton')}
      destructive
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(user, {
          onSuccess: () => {
            showToast('success', t('userAdmin:deleted', { name: user.displayName }));
            onClose();
          },
        })
      }
      onCancel={onClose}
    >
      <Stack gap="3">
        <Text>{t('userAdmin:deleteText', { name: user.displayName, email: user.email })}</Text>
        {remove.error ? <StatusAlert status="error">{failureOf(t, remove.error)}</StatusAlert> : null}
      </Stack>
    </ConfirmDialog>
  );
}
