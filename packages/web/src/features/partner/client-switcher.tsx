import { Badge, Box, Button, Flex, Input, Link, Popover, Portal, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import type { Client } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useRouter } from '@tanstack/react-router';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerAction } from '../../offline/online';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { clientsQuery } from './api/queries';
import { useSwitchClient } from './switch-client';

/** A client found by its name, short name or tenant domain, in any case. */
function matches(client: Client, text: string): boolean {
  if (!text) return true;
  return [client.name, client.worker.abbr, client.worker.tenantDomain ?? ''].some((v) =>
    v.toLowerCase().includes(text),
  );
}

/**
 * The page a partner stays on when switching clients: the same page, which every client has, without
 * what names one client's things (a mailbox's page goes to the mailboxes), and without the page's
 * filters and open items, which were the previous client's.
 */
export function samePageFor(fullPath: string, pathname: string, known: (path: string) => boolean): string {
  const segments = fullPath.split('/');
  const param = segments.findIndex((s) => s.startsWith('$'));
  if (param === -1) return pathname;
  const parent = segments.slice(0, param).join('/') || '/';
  return known(parent) ? parent : '/';
}

/**
 * The header's choice of client for a partner or operator: the current client's name (and tenant
 * domain) as a button that opens a search of every client. Typing filters the clients (read once, so
 * the search is instant for hundreds), ↑ and ↓ move through them, Enter switches, Escape closes.
 * Switching keeps the page. On a phone the panel takes the screen's width.
 */
export function ClientSwitcher() {
  const { t } = useTranslation();
  const api = useApi();
  const router = useRouter();
  const worker = useWorker();
  const switchClient = useSwitchClient();
  const serverAction = useServerAction();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const ids = useId();
  const clients = useQuery({ ...clientsQuery(api), enabled: open || !worker });

  const needle = text.trim().toLowerCase();
  const found = useMemo(
    () => (clients.data ?? []).filter((c) => matches(c, needle)).sort((a, b) => a.name.localeCompare(b.name)),
    [clients.data, needle],
  );
  const activeClient = found[Math.min(active, found.length - 1)];
  const optionId = (c: Client) => `${ids}-option-${c.clientId}`;

  // The chosen option stays in view as the arrows move through a long list.
  useEffect(() => {
    if (!activeClient) return;
    list.current?.ownerDocument.getElementById(optionId(activeClient))?.scrollIntoView?.({ block: 'nearest' });
  });

  const choose = (client: Client) => {
    setOpen(false);
    const leaf = router.state.matches.at(-1);
    const href = samePageFor(
      leaf?.fullPath ?? '/',
      router.state.location.pathname,
      (path) => path in router.routesByPath,
    );
    void switchClient(client, { href });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = found.length - 1;
    if (e.key === 'ArrowDown') setActive((i) => Math.min(last, i + 1));
    else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
    else if (e.key === 'Home' && e.ctrlKey) setActive(0);
    else if (e.key === 'End' && e.ctrlKey) setActive(Math.max(0, last));
    else if (e.key === 'Enter' && activeClient) choose(activeClient);
    else return;
    e.preventDefault();
  };

  const name = worker?.organisationName ?? t('partner:switcher.none');
  return (
    <Popover.Root
      open={open}
      onOpenChange={(e) => {
        setOpen(e.open);
        if (e.open) {
          setText('');
          setActive(0);
        }
      }}
      initialFocusEl={() => input.current}
      positioning={{ placement: 'bottom-start', strategy: 'fixed' }}
      lazyMount
      unmountOnExit
    >
      <Popover.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          flex="0 1 auto"
          minW="0"
          maxW={{ base: 'full', md: 'md' }}
          h="auto"
          minH="9"
          py="1"
          px="2"
          justifyContent="flex-start"
          textAlign="start"
          data-testid="client-switcher"
          {...serverAction}
        >
          <VisuallyHidden>{t('partner:switcher.label')}: </VisuallyHidden>
          <Stack gap="0" minW="0" flex="1" data-testid="current-organisation">
            <Flex align="center" gap="2" minW="0">
              {/* A long name wraps (two lines at most) rather than being cut: on a phone the header is narrow. */}
              <Text fontSize="sm" fontWeight="medium" whiteSpace="normal" overflowWrap="anywhere" lineClamp={2}>
                {name}
              </Text>
              {worker?.cloud_portal_license === 'trial' ? (
                <Badge size="sm" colorPalette="orange" variant="subtle" flexShrink={0} hideBelow="sm">
                  {t('common:trialBadge')}
                </Badge>
              ) : null}
            </Flex>
            {worker?.tenantDomain ? (
              <Text
                fontSize="xs"
                color="fg.muted"
                fontWeight="normal"
                whiteSpace="normal"
                overflowWrap="anywhere"
                lineClamp={2}
                data-testid="tenant-domain"
              >
                {worker.tenantDomain}
              </Text>
            ) : null}
          </Stack>
          <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" style={{ flexShrink: 0 }}>
            <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.6" />
          </svg>
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width={{ base: 'calc(100vw - 1rem)', sm: 'sm' }} maxW="calc(100vw - 1rem)">
            <Popover.Body p="3">
              <Stack gap="2">
                <Input
                  ref={input}
                  size="sm"
                  type="text"
                  role="combobox"
                  aria-label={t('partner:switcher.search')}
                  aria-describedby={`${ids}-hint`}
                  aria-expanded="true"
                  aria-controls={`${ids}-list`}
                  aria-autocomplete="list"
                  aria-activedescendant={activeClient ? optionId(activeClient) : undefined}
                  placeholder={t('partner:switcher.search')}
                  autoComplete="off"
                  maxLength={200}
                  value={text}
                  onChange={(e) => {
                    setText(e.target.value);
                    setActive(0);
                  }}
                  onKeyDown={onKeyDown}
                />
                <Text id={`${ids}-hint`} fontSize="xs" color="fg.muted">
                  {t('partner:switcher.hint')}
                </Text>
                {clients.error ? (
                  <Stack gap="1" align="flex-start">
                    <Text fontSize="sm" color="fg.error" role="alert">
                      {t('partner:switcher.loadFailed')}
                    </Text>
                    <Button size="xs" variant="outline" onClick={() => void clients.refetch()}>
                      {t('common:retry')}
                    </Button>
                  </Stack>
                ) : !clients.data ? (
                  <Text fontSize="sm" color="fg.muted" aria-live="polite">
                    {t('partner:switcher.loading')}
                  </Text>
                ) : (
                  <Text fontSize="xs" color="fg.muted" aria-live="polite">
                    {found.length === 0
                      ? t('partner:switcher.noMatch', { text: text.trim() })
                      : t('partner:switcher.matches', { count: found.length })}
                  </Text>
                )}
                <Box
                  as="ul"
                  ref={list}
                  id={`${ids}-list`}
                  role="listbox"
                  aria-label={t('partner:switcher.label')}
                  listStyleType="none"
                  m="0"
                  p="0"
                  maxH={{ base: '60vh', md: '80' }}
                  overflowY="auto"
                >
                  {found.map((c, i) => {
                    const isActive = c === activeClient;
                    const current = c.clientId === worker?.clientId;
                    return (
                      <Box
                        as="li"
                        key={c.clientId}
                        id={optionId(c)}
                        role="option"
                        aria-selected={isActive}
                        aria-current={current ? 'true' : undefined}
                        px="2"
                        py="1.5"
                        borderRadius="sm"
                        cursor="pointer"
                        bg={isActive ? 'blue.subtle' : undefined}
                        outline={isActive ? '2px solid' : undefined}
                        outlineColor={isActive ? 'blue.focusRing' : undefined}
                        onMouseMove={() => setActive(i)}
                        onClick={() => choose(c)}
                      >
                        <Flex align="center" gap="2" minW="0">
                          <Text fontSize="sm" fontWeight={current ? 'semibold' : 'normal'} truncate>
                            {c.name}
                          </Text>
                          {current ? (
                            <Badge size="sm" colorPalette="blue" flexShrink={0}>
                              {t('partner:switcher.current')}
                            </Badge>
                          ) : null}
                        </Flex>
                        <Text fontSize="xs" color="fg.muted" truncate>
                          {c.worker.tenantDomain ?? t('fleet:noTenant')}
                        </Text>
                      </Box>
                    );
                  })}
                </Box>
                <Link asChild fontSize="sm" colorPalette="blue" alignSelf="flex-start">
                  <RouterLink to="/partner-setup" onClick={() => setOpen(false)}>
                    {t('partner:switcher.fleet')}
                  </RouterLink>
                </Link>
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
