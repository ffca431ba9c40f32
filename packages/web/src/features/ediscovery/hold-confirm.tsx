import { List, Stack, Text } from '@chakra-ui/react';
import type { EdiscoveryCase, EdiscoveryCustodian } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { formatNumber } from '../../components/ui/format';

/** The most custodians a confirmation names; the rest are counted. */
const NAMED = 6;

/**
 * The confirmation of a legal hold placed on a case or released: what it keeps (its custodians by
 * name, its search, the hits when it was saved) or what deletion jobs may then delete (the items the
 * hold keeps, per custodian). The focus starts on Cancel.
 */
export function HoldConfirm({
  found,
  action,
  pending,
  failure,
  onConfirm,
  onCancel,
}: {
  /** The case, or null while nothing is asked. */
  found: EdiscoveryCase | null;
  action: 'place' | 'release';
  pending: boolean;
  failure: string | null;
  onConfirm: (found: EdiscoveryCase) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const kind = (k: 'mailbox' | 'team' | 'chats') => t(`confirmations:hold.kinds.${k}`);
  const place = action === 'place';
  const custodians: readonly EdiscoveryCustodian[] = found
    ? place
      ? found.custodians
      : (found.hold?.custodians ?? [])
    : [];
  const names = custodians.map((c) => `${c.name} (${kind(c.kind)})`);
  const listed = names.slice(0, 3).join(', ');
  const custodianText = names.length > 3 ? t('backup:andMore', { list: listed, count: names.length - 3 }) : listed;
  const items = found?.hold?.items ?? 0;
  return (
    <ConfirmDialog
      open={!!found}
      title={
        place
          ? t('confirmations:hold.placeTitle', { name: found?.name ?? '' })
          : t('ediscovery:hold.releaseTitle', { name: found?.name ?? '' })
      }
      confirmLabel={place ? t('confirmations:hold.place') : t('ediscovery:hold.release')}
      destructive={!place}
      pending={pending}
      onConfirm={() => found && onConfirm(found)}
      onCancel={onCancel}
    >
      <Stack gap="2">
        <Text data-testid="hold-confirm-text">
          {place
            ? t('confirmations:hold.placeText', {
                custodians: custodianText,
                query: found?.search.query || '*',
                count: found?.hits ?? 0,
                hits: formatNumber(found?.hits ?? 0, lang),
              })
            : t('confirmations:hold.releaseText', { count: items, items: formatNumber(items, lang) })}
        </Text>
        {!place && found?.hold ? (
          <Stack gap="1">
            <Text fontWeight="semibold" fontSize="sm" id="hold-confirm-custodians">
              {t('confirmations:hold.custodiansLabel')}
            </Text>
            <List.Root
              ps="4"
              fontSize="sm"
              aria-labelledby="hold-confirm-custodians"
              data-testid="hold-confirm-custodians"
            >
              {found.hold.custodians.slice(0, NAMED).map((c) => (
                <List.Item key={`${c.kind}:${c.id}`}>
                  {t('confirmations:hold.custodianItems', {
                    name: c.name,
                    kind: kind(c.kind),
                    count: c.items,
                    items: formatNumber(c.items, lang),
                  })}
                </List.Item>
              ))}
              {found.hold.custodians.length > NAMED ? (
                <List.Item>
                  {t('confirmations:hold.more', { n: formatNumber(found.hold.custodians.length - NAMED, lang) })}
                </List.Item>
              ) : null}
            </List.Root>
          </Stack>
        ) : null}
        {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
      </Stack>
    </ConfirmDialog>
  );
}
