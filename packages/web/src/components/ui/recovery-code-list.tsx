import { Button, Clipboard, Code, Flex, List, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** Recovery codes shown once, in two columns, with buttons to copy them or save them as a text file. */
export function RecoveryCodeList({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('auth:recoveryDownloadName');
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Stack gap="4">
      <List.Root
        as="ol"
        data-testid="recovery-codes"
        listStyle="none"
        display="grid"
        gridTemplateColumns="repeat(2, 1fr)"
        gap="2"
      >
        {codes.map((code) => (
          <List.Item key={code}>
            <Code fontSize="md">{code}</Code>
          </List.Item>
        ))}
      </List.Root>
      <Flex gap="2" wrap="wrap">
        <Clipboard.Root value={text}>
          <Clipboard.Trigger asChild>
            <Button variant="outline" size="sm">
              <Clipboard.Indicator copied={t('common:copied')}>{t('common:copy')}</Clipboard.Indicator>
            </Button>
          </Clipboard.Trigger>
        </Clipboard.Root>
        <Button variant="outline" size="sm" onClick={download}>
          {t('common:download')}
        </Button>
      </Flex>
    </Stack>
  );
}
