import { Button, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { TrailStep } from './use-file-manager-location';

/** The way back to the sources, the source's name and the folders down to the current one. */
export function BrowserTrail({
  sourceName,
  trail,
  onBack,
  onGoUp,
}: {
  sourceName: string;
  trail: TrailStep[];
  onBack: () => void;
  onGoUp: (index: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <HStack gap="1" wrap="wrap" as="nav" aria-label={t('dataManagement:browse')}>
      <Button size="sm" variant="ghost" onClick={onBack}>
        ‹ {t('dataManagement:sources')}
      </Button>
      <Text fontWeight="medium">{sourceName}</Text>
      {trail.map((step, i) => (
        <HStack key={step.nodeId} gap="1">
          <Text color="fg.muted" aria-hidden="true">
            /
          </Text>
          <Button
            size="sm"
            variant={i === trail.length - 1 ? 'subtle' : 'ghost'}
            aria-current={i === trail.length - 1 ? 'location' : undefined}
            onClick={() => onGoUp(i)}
          >
            {step.name}
          </Button>
        </HStack>
      ))}
    </HStack>
  );
}
