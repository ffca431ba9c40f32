import { Link as ChakraLink, Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type HelpTarget, helpLocation } from '../help/topics';

/** A question mark in a circle, beside the help link's words. */
function HelpMark() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path
        d="M6.2 6.2a1.9 1.9 0 1 1 2.6 1.8c-.5.2-.8.6-.8 1.1v.4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
      />
      <circle cx="8" cy="11.6" r=".9" fill="currentColor" />
    </svg>
  );
}

/**
 * The link to the help center opened at a page's article. Its name starts with its visible words and
 * names the topic, so a screen reader's list of links says where each goes.
 */
function HelpLink({ help }: { help: HelpTarget }) {
  const { t } = useTranslation();
  const search = helpLocation(help);
  const topic = t(`helpcenter:topics.${search.topic}.title`);
  return (
    <ChakraLink asChild fontSize="sm" colorPalette="blue" alignSelf="flex-start" data-testid="page-help">
      <Link to="/helpcenter" search={search} aria-label={t('helpcenter:pageLinkNamed', { topic })}>
        <HelpMark />
        {t('helpcenter:pageLink')}
      </Link>
    </ChakraLink>
  );
}

export function PageHeader({
  title,
  description,
  actions,
  help,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  /** The help center's topic or article about this page: a link under the title opens it. */
  help?: HelpTarget;
}) {
  return (
    <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ md: 'center' }} gap="3" mb="6">
      <Stack gap="1">
        <Heading as="h1" size="xl">
          {title}
        </Heading>
        {description ? <Text color="fg.muted">{description}</Text> : null}
        {help ? <HelpLink help={help} /> : null}
      </Stack>
      {actions}
    </Stack>
  );
}
