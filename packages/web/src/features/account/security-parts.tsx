/**
 * The parts of the security tab's sections: a titled card, and a change behind a button that opens
 * its form.
 */
import { Button, Card, Flex, Heading, Stack } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerAction } from '../../offline/online';
import { WRAPPING_LABEL } from './wrapping';

/** Where the user comes back to after setting up a new authenticator. */
export const BACK_HERE = '/account/settings?tab=security';

/** A section of the tab: a card titled by its heading. */
export function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card.Root as="section" aria-labelledby={id} data-testid={testId}>
      <Card.Body gap="3">
        <Heading as="h2" size="md" id={id}>
          {title}
        </Heading>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * A change behind a button: the button opens its form, which takes the focus; Cancel closes it and
 * gives the focus back to the button.
 */
export function useDisclosure() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return { open, setOpen, opener };
}

/**
 * A change behind a button (see {@link useDisclosure}): the button, or its form with the fields,
 * the submit button and Cancel.
 */
export function DisclosedForm({
  disclosure,
  openLabel,
  onOpen,
  onSubmit,
  submitLabel,
  submitPalette = 'blue',
  pending,
  children,
}: {
  disclosure: ReturnType<typeof useDisclosure>;
  openLabel: string;
  /** Clears what the last attempt left before the form opens. */
  onOpen: () => void;
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  submitPalette?: string;
  pending: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const serverAction = useServerAction();
  const formId = useId();
  if (!disclosure.open) {
    return (
      <Button
        {...WRAPPING_LABEL}
        ref={disclosure.opener}
        variant="outline"
        size="sm"
        alignSelf="flex-start"
        aria-expanded={false}
        aria-controls={formId}
        onClick={() => {
          onOpen();
          disclosure.setOpen(true);
        }}
      >
        {openLabel}
      </Button>
    );
  }
  return (
    <form id={formId} onSubmit={onSubmit} noValidate>
      <Stack gap="3" maxW="md">
        {children}
        <Flex gap="2" wrap="wrap">
          <Button {...WRAPPING_LABEL} type="submit" colorPalette={submitPalette} loading={pending} {...serverAction}>
            {submitLabel}
          </Button>
          <Button {...WRAPPING_LABEL} variant="ghost" onClick={() => disclosure.setOpen(false)}>
            {t('common:cancel')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
