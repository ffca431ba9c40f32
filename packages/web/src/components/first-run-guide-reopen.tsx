import { Button, Card, Heading, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useFirstRunGuideChoice } from './first-run-guide-choice';
import { WRAPPING_BUTTON } from './ui/wrapping-button';

/** The help center's way back to the overview's first-run guide, hidden or done. */
export function FirstRunGuideReopen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [, choose] = useFirstRunGuideChoice();
  return (
    <Card.Root as="section" aria-labelledby="first-run-help-title" variant="subtle" data-testid="first-run-reopen">
      <Card.Body gap="2">
        <Heading as="h2" size="sm" id="first-run-help-title">
          {t('firstRun:help.title')}
        </Heading>
        <Text fontSize="sm">{t('firstRun:help.text')}</Text>
        <Button
          size="sm"
          colorPalette="blue"
          alignSelf="flex-start"
          {...WRAPPING_BUTTON}
          onClick={() => {
            choose('shown');
            void navigate({ to: '/' });
          }}
        >
          {t('firstRun:help.reopen')}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
