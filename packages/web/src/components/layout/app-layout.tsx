import {
  Badge,
  Box,
  Button,
  CloseButton,
  Drawer,
  Flex,
  IconButton,
  Link,
  Menu,
  Portal,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { Outlet, Link as RouterLink, useNavigate, useRouterState } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/context';
import { useWorker } from '../../session/use-worker';
import { LanguageSwitch } from '../language-switch';
import { TrialDialog } from '../trial-dialog';
import { navigation, visibleFor } from './navigation';

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { context } = useSession();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const role = context.user?.user.role;
  return (
    <Stack as="nav" aria-label={t('nav:main')} gap="4" py="4">
      {navigation.map((group) => {
        const items = group.items.filter((item) => visibleFor(role, item.to));
        if (items.length === 0) return null;
        return (
          <Stack key={group.label} gap="1" as="section" aria-label={t(group.label)}>
            <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" color="fg.muted" px="3">
              {t(group.label)}
            </Text>
            {items.map((item) => {
              const active = pathname === item.to;
              return (
                <Link
                  key={item.to}
                  asChild
                  px="3"
                  py="1.5"
                  borderRadius="md"
                  fontSize="sm"
                  color={active ? 'brand.700' : 'fg'}
                  bg={active ? 'brand.50' : undefined}
                  fontWeight={active ? 'semibold' : 'normal'}
                  _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
                >
                  <RouterLink to={item.to} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
                    {t(item.label)}
                  </RouterLink>
                </Link>
              );
            })}
          </Stack>
        );
      })}
    </Stack>
  );
}

/** The account's own pages: /account/settings and its tab. */
const ACCOUNT_ENTRIES = [
  { tab: 'security', label: 'accountSecurity:menu.security' },
  { tab: 'activity', label: 'accountSecurity:menu.activity' },
  { tab: 'notifications', label: 'accountSecurity:menu.notifications' },
] as const;

/** The organisation's audit log, for those who reach the configuration. */
const AUDIT_LOG = '/configuration/audit-log';

function UserMenu() {
  // The default namespace is `common`; without a namespace here `t()` also takes the prefixed keys.
  const { t } = useTranslation();
  const { context, send } = useSession();
  const navigate = useNavigate();
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" size="sm" data-testid="user-menu">
          <VisuallyHidden>{t('userMenu')}: </VisuallyHidden>
          <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
            <circle cx="10" cy="6.5" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <path d="M3 17.5c1.2-3.6 4-5.2 7-5.2s5.8 1.6 7 5.2" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
          {/* Below 600 px the address is read out but not shown, so the header fits 320 px. */}
          <VisuallyHidden hideFrom="sm">{context.user?.user.email}</VisuallyHidden>
          <Text truncate maxW={{ sm: '40', md: '56' }} hideBelow="sm">
            {context.user?.user.email}
          </Text>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel>{context.user?.user.role}</Menu.ItemGroupLabel>
              {ACCOUNT_ENTRIES.map((entry) => (
                <Menu.Item
                  key={entry.tab}
                  value={entry.tab}
                  onSelect={() => void navigate({ to: '/account/settings', search: { tab: entry.tab } })}
                  data-testid={`menu-${entry.tab}`}
                >
                  {t(entry.label)}
                </Menu.Item>
              ))}
            </Menu.ItemGroup>
            {visibleFor(context.user?.user.role, AUDIT_LOG) ? (
              <>
                <Menu.Separator />
                <Menu.Item
                  value="audit-log"
                  onSelect={() => void navigate({ to: AUDIT_LOG })}
                  data-testid="menu-audit-log"
                >
                  {t('auditLog:menu')}
                </Menu.Item>
              </>
            ) : null}
            <Menu.Separator />
            <Menu.ItemGroup>
              <Menu.Item value="logout" onSelect={() => send({ type: 'session.logout' })} data-testid="logout">
                {t('logout')}
              </Menu.Item>
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/**
 * The organisation worked for and its Microsoft 365 tenant's domain, each cut short with an ellipsis
 * rather than pushing the language switch and user menu off a 320 px screen; a trial licence as a
 * badge from 600 px (below, the trial dialog has said so). Never the worker's address: it names
 * nothing a person knows.
 */
function CurrentOrganisation() {
  const { t } = useTranslation('common');
  const worker = useWorker();
  const name = worker?.organisationName ?? t('noWorker');
  return (
    <Stack gap="0" flex="1" minW="0" data-testid="current-organisation">
      <Flex align="center" gap="2" minW="0">
        <Text fontSize="sm" fontWeight="medium" truncate title={name}>
          {name}
        </Text>
        {worker?.cloud_portal_license === 'trial' ? (
          <Badge size="sm" colorPalette="orange" variant="subtle" flexShrink={0} hideBelow="sm">
            {t('trialBadge')}
          </Badge>
        ) : null}
      </Flex>
      {worker?.tenantDomain ? (
        <Text fontSize="xs" color="fg.muted" truncate title={worker.tenantDomain} data-testid="tenant-domain">
          {worker.tenantDomain}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Those who work for several organisations (partners for their clients, operators) choose one in the header. */
const SWITCHING_ROLES: readonly string[] = ['partner', 'operator'];

/**
 * The main layout: navigation for every area, the organisation and its tenant (for a partner or
 * operator, `clientSwitcher`: the same, and the choice of another client), language, user menu.
 */
export function AppLayout({ clientSwitcher }: { clientSwitcher?: ReactNode }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const worker = useWorker();
  const { context } = useSession();
  const role = context.user?.user.role;
  return (
    <Flex minH="100vh" direction="column">
      <Link
        href="#main"
        position="absolute"
        left="-9999px"
        _focus={{ left: '2', top: '2', zIndex: 'max', bg: 'bg', p: '2' }}
      >
        {t('skipToContent')}
      </Link>
      <Flex
        as="header"
        align="center"
        gap="3"
        px={{ base: '3', md: '6' }}
        py="3"
        borderBottomWidth="1px"
        bg="bg"
        position="sticky"
        top="0"
        zIndex="docked"
      >
        <IconButton
          aria-label={t('openNavigation')}
          variant="ghost"
          size="sm"
          hideFrom="md"
          onClick={() => setOpen(true)}
        >
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" />
          </svg>
        </IconButton>
        <Box fontWeight="bold" color="brand.700" fontSize={{ base: 'md', md: 'lg' }} whiteSpace="nowrap" hideBelow="sm">
          {t('appName')}
        </Box>
        {clientSwitcher && role && SWITCHING_ROLES.includes(role) ? (
          // The switcher as wide as its name, the rest of the header's room kept free before the language.
          <Flex flex="1" minW="0">
            {clientSwitcher}
          </Flex>
        ) : (
          <CurrentOrganisation />
        )}
        <LanguageSwitch />
        <UserMenu />
      </Flex>
      <Flex flex="1" minH="0">
        <Box
          as="aside"
          hideBelow="md"
          width={{ md: '240px', xl: '260px' }}
          borderRightWidth="1px"
          px="2"
          overflowY="auto"
          flexShrink={0}
        >
          <NavLinks />
        </Box>
        <Box as="main" id="main" flex="1" minW="0" px={{ base: '4', md: '8' }} py="6" tabIndex={-1}>
          <Outlet />
        </Box>
      </Flex>
      <Drawer.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="start">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content>
              <Drawer.Header>
                <Drawer.Title>{t('appName')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body px="2">
                <NavLinks onNavigate={() => setOpen(false)} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('closeNavigation')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
      <TrialDialog key={worker?.workerId ?? 'none'} />
    </Flex>
  );
}
