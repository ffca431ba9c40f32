import { Button, HStack, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WRAPPING_BUTTON } from './wrapping-button';

/** One thing a row's user can do (start, edit, remove…): shown as a button, or as an item of the row's menu. */
export interface RowAction {
  key: string;
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  /** Why it is disabled, in words: a tooltip beside the button, and a visible line in the menu (touch has no tooltip). */
  reason?: string;
  /** The id of a visible text on the page that says why it is disabled (aria-describedby). */
  describedBy?: string;
  /** blue for the row's main action, red for one that removes, orange for a legal hold. */
  palette?: 'blue' | 'red' | 'orange';
  /** A longer accessible name than the label ("Test Offsite backups" for "Test"). */
  ariaLabel?: string;
  /** Its request is under way. */
  loading?: boolean;
  /** Quiet (ghost) rather than outlined when shown as a button. */
  quiet?: boolean;
}

/** A table's actions column: what each row offers, and the row's name for the menu's accessible name. */
export interface RowActions<T> {
  header: string;
  actions: (row: T) => RowAction[];
  rowLabel: (row: T) => string;
}

/** A disabled action's props: a server action that is offline or an action a licence forbids. */
export function actionState(
  server: { disabled?: boolean; title?: string; 'aria-describedby'?: string },
  own?: { disabled: boolean; reason?: string; describedBy?: string },
): Pick<RowAction, 'disabled' | 'reason' | 'describedBy'> {
  if (server.disabled)
    return {
      disabled: true,
      ...(server.title ? { reason: server.title } : {}),
      ...(server['aria-describedby'] ? { describedBy: server['aria-describedby'] } : {}),
    };
  if (own?.disabled)
    return {
      disabled: true,
      ...(own.reason ? { reason: own.reason } : {}),
      ...(own.describedBy ? { describedBy: own.describedBy } : {}),
    };
  return { disabled: false };
}

/** One action as a button. */
function ActionButton({ action }: { action: RowAction }) {
  return (
    <Button
      size="xs"
      variant={action.quiet ? 'ghost' : 'outline'}
      {...(action.palette ? { colorPalette: action.palette } : {})}
      onClick={action.onSelect}
      disabled={action.disabled}
      loading={action.loading}
      title={action.disabled ? action.reason : undefined}
      aria-label={action.ariaLabel}
      aria-describedby={action.disabled ? action.describedBy : undefined}
      data-action={action.key}
      // A long label (German, on a phone) wraps inside the cell instead of widening the table.
      {...WRAPPING_BUTTON}
    >
      {action.label}
    </Button>
  );
}

/**
 * A row's actions: side by side, or (folded, where the table has no room for them) its first action
 * as a button and the others behind a "More" menu. A button disabled for a reason no text on the page
 * gives has that reason written under the buttons (a tooltip never shows on touch).
 */
export function RowActionsCell({
  actions,
  rowLabel,
  folded,
}: {
  actions: RowAction[];
  rowLabel: string;
  folded: boolean;
}) {
  const { t } = useTranslation();
  const reasonId = useId();
  const [first, ...rest] = actions;
  const buttons = folded ? (first ? [first] : []) : actions;
  const unsaid = [
    ...new Set(buttons.filter((a) => a.disabled && a.reason && !a.describedBy).map((a) => a.reason ?? '')),
  ];
  const said = (a: RowAction): RowAction =>
    a.disabled && a.reason && !a.describedBy ? { ...a, describedBy: reasonId } : a;
  return (
    <Stack gap="1">
      {/* Folded, the button and the menu may stand one above the other, so a phone's row keeps its width. */}
      <HStack
        gap="1"
        wrap={folded ? 'wrap' : 'nowrap'}
        role="group"
        aria-label={t('table:actionsFor', { name: rowLabel })}
      >
        {buttons.map((a) => (
          <ActionButton key={a.key} action={said(a)} />
        ))}
        {folded && rest.length > 0 ? <MoreMenu actions={rest} rowLabel={rowLabel} /> : null}
      </HStack>
      {unsaid.length > 0 ? (
        <Text id={reasonId} fontSize="xs" color="fg.muted" maxW="64" data-testid="action-reason">
          {unsaid.join(' ')}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * A row's further actions behind one button: a small panel of buttons, each as it would stand in the
 * row (a disabled one with its reason written under it); choosing one closes the panel.
 */
function MoreMenu({ actions, rowLabel }: { actions: RowAction[]; rowLabel: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ids = useId();
  return (
    <Popover.Root open={open} onOpenChange={(e) => setOpen(e.open)} positioning={{ placement: 'bottom-end' }}>
      <Popover.Trigger asChild>
        <Button size="xs" variant="ghost" aria-label={t('table:moreFor', { name: rowLabel })} data-actions-menu="">
          {t('table:more')}
          <span aria-hidden="true">▾</span>
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="auto" maxW="xs">
            <Popover.Body p="2">
              <Stack gap="1" role="group" aria-label={t('table:moreFor', { name: rowLabel })}>
                {actions.map((a) => (
                  <Stack key={a.key} gap="0.5" align="stretch">
                    <Button
                      size="sm"
                      variant="ghost"
                      justifyContent="flex-start"
                      {...(a.palette ? { colorPalette: a.palette } : {})}
                      disabled={a.disabled}
                      loading={a.loading}
                      aria-label={a.ariaLabel}
                      aria-describedby={a.disabled && a.reason ? `${ids}-${a.key}` : a.describedBy}
                      data-action={a.key}
                      onClick={() => {
                        setOpen(false);
                        a.onSelect();
                      }}
                    >
                      {a.label}
                    </Button>
                    {a.disabled && a.reason ? (
                      <Text id={`${ids}-${a.key}`} fontSize="xs" color="fg.muted" px="3" whiteSpace="normal">
                        {a.reason}
                      </Text>
                    ) : null}
                  </Stack>
                ))}
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
