import { Badge, Button, Card, Heading, HStack, List, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFirstRunGuideChoice } from '../../components/first-run-guide-choice';
import { formatDateTime } from '../../components/ui/format';
import { WRAPPING_BUTTON } from '../../components/ui/wrapping-button';
import { type GuideStep, type SetupFacts, STEP_LINKS, setupSteps, useSetupFacts } from './first-run-steps';

/**
 * Whether the guide shows: once its facts are known, while a step is left, unless the user hid it;
 * always when the user asked for it again from the help center.
 */
export function useFirstRunGuide() {
  const { facts, failed } = useSetupFacts();
  const [choice, choose] = useFirstRunGuideChoice();
  const steps = facts ? setupSteps(facts) : null;
  const allDone = !!steps && steps.every((s) => s.done);
  const visible = !!steps && choice !== 'hidden' && (choice === 'shown' || !allDone);
  /** Known: shown, or known not to show (hidden, done, or its facts unavailable). */
  const settled = !!steps || failed || choice === 'hidden';
  return { facts, steps, allDone, visible, settled, hide: () => choose('hidden') };
}
export type FirstRunGuideState = ReturnType<typeof useFirstRunGuide>;

/** What the portal knows of one step, in words. */
function useStepDetail() {
  const { t, i18n } = useTranslation();
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  // Each step's keys written out, so that `t()` checks them (and their values) step by step.
  return (step: GuideStep, facts: SetupFacts): string => {
    switch (step.id) {
      case 'tenant':
        return facts.tenant
          ? t('firstRun:steps.tenant.done', { name: facts.tenant.tenantName })
          : t('firstRun:steps.tenant.text');
      case 'connection': {
        const test = facts.connection;
        if (!facts.tenant) return t('firstRun:steps.connection.text');
        if (!test) return `${t('firstRun:steps.connection.notTested')} ${t('firstRun:steps.connection.text')}`;
        const missing = test.missing.length
          ? ` ${t('firstRun:steps.connection.missing', { permissions: list.format(test.missing) })}`
          : '';
        if (!test.ok) return `${t('firstRun:steps.connection.failed', { reason: test.message ?? '' })}${missing}`;
        if (missing) return `${t('firstRun:steps.connection.works')}${missing}`;
        return t('firstRun:steps.connection.done', { at: formatDateTime(test.at, i18n.language) });
      }
      case 'locations': {
        if (!step.done) return t('firstRun:steps.locations.text');
        // Where their data goes, kind by kind, in the order of the locations' form.
        const where = (['server', 'azureBlob', 's3'] as const)
          .filter((store) => facts.locationStores[store] > 0)
          .map((store) => t(`locations:guide.in.${store}`, { count: facts.locationStores[store] }));
        return t('locations:guide.done', { count: facts.locations, where: list.format(where) });
      }
      case 'backup':
        return step.done
          ? t('firstRun:steps.backup.done', { count: facts.backupJobs })
          : t('firstRun:steps.backup.text');
      case 'mail':
        return step.done
          ? t('firstRun:steps.mail.done', { count: facts.mailArchiveJobs })
          : t('firstRun:steps.mail.text');
    }
  };
}

/**
 * The first-run guide of the overview: the setup steps in order, each with its state in words and a
 * link to the screen where it is done; the first step left is the highlighted action.
 */
export function FirstRunGuide({ guide }: { guide: FirstRunGuideState }) {
  const { t } = useTranslation();
  const detail = useStepDetail();
  const [hiddenNow, setHiddenNow] = useState(false);
  const helpLink = useRef<HTMLAnchorElement>(null);
  // The hide button is gone: focus goes to where the guide comes back from, not to the page's start.
  useEffect(() => {
    if (hiddenNow) helpLink.current?.focus();
  }, [hiddenNow]);
  const { facts, steps } = guide;
  if (!guide.visible || !facts || !steps) {
    return hiddenNow ? (
      <HStack gap="3" wrap="wrap" mb="6" role="status" data-testid="first-run-hidden">
        <Text fontSize="sm">{t('firstRun:hidden')}</Text>
        <Button asChild size="xs" variant="outline">
          <Link to="/helpcenter" ref={helpLink}>
            {t('firstRun:openHelp')}
          </Link>
        </Button>
      </HStack>
    ) : null;
  }
  const next = steps.find((s) => !s.done)?.id;
  const done = steps.filter((s) => s.done).length;
  return (
    <Card.Root as="section" aria-labelledby="first-run-title" data-testid="first-run-guide" mb="6" variant="outline">
      <Card.Body gap="4">
        <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ sm: 'flex-start' }} gap="2">
          <Stack gap="1">
            <Heading as="h2" size="md" id="first-run-title">
              {t('firstRun:title')}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {t('firstRun:intro')}
            </Text>
            <Text fontSize="sm" fontWeight="medium" data-testid="first-run-progress">
              {guide.allDone ? t('firstRun:allDone') : t('firstRun:progress', { done, total: steps.length })}
            </Text>
          </Stack>
          <Button
            size="sm"
            variant="ghost"
            alignSelf={{ base: 'flex-start', sm: 'auto' }}
            onClick={() => {
              setHiddenNow(true);
              guide.hide();
            }}
          >
            {t('firstRun:hide')}
          </Button>
        </Stack>
        <List.Root as="ol" listStyleType="decimal" ps="6" gap="4">
          {steps.map((step) => (
            <List.Item key={step.id} data-testid={`step-${step.id}`} data-done={step.done}>
              <Stack gap="1" minW="0">
                <HStack gap="2" wrap="wrap">
                  <Text as="span" fontWeight="semibold">
                    {t(`firstRun:steps.${step.id}.title`)}
                  </Text>
                  <Badge colorPalette={step.done ? 'green' : 'gray'} variant="subtle" data-testid="step-state">
                    <span aria-hidden="true">{step.done ? '✓' : '○'}</span>
                    {step.done ? t('firstRun:done') : t('firstRun:todo')}
                  </Badge>
                </HStack>
                <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
                  {detail(step, facts)}
                </Text>
                <Button
                  asChild
                  size="sm"
                  variant={step.id === next ? 'solid' : 'outline'}
                  colorPalette="blue"
                  alignSelf="flex-start"
                  {...WRAPPING_BUTTON}
                >
                  <Link {...STEP_LINKS[step.id]}>{t(`firstRun:steps.${step.id}.action`)}</Link>
                </Button>
                {step.id === 'backup' && step.done ? (
                  // What a backup is for: once there is one, its restore is the next thing to know.
                  <Button
                    asChild
                    size="sm"
                    variant="outline"
                    colorPalette="blue"
                    alignSelf="flex-start"
                    {...WRAPPING_BUTTON}
                  >
                    <Link to="/backup-and-restore/restore">{t('firstRun:steps.backup.restore')}</Link>
                  </Button>
                ) : null}
              </Stack>
            </List.Item>
          ))}
        </List.Root>
      </Card.Body>
    </Card.Root>
  );
}
