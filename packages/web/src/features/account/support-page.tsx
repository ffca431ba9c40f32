import { Button, Card, Field, Input, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { ApiError, SUPPORT_AREAS, type SupportArea, type SupportRequest } from '@compliance-portal/sdk';
import { useRouteContext } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { PageHeader } from '../../components/ui/page-header';
import { rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { useSendSupportRequest } from './api/mutations';

function RequestForm() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const [touched, setTouched] = useState(false);
  const [subject, setSubject] = useState('');
  const [area, setArea] = useState<SupportArea>('other');
  const [message, setMessage] = useState('');
  const [phone, setPhone] = useState('');
  const [sent, setSent] = useState<SupportRequest | null>(null);
  const serverAction = useServerAction();
  const check = useValidator();
  const errors = {
    subject: check(subject, rules.required(), rules.maxLength(200)),
    message: check(message, rules.required(), rules.maxLength(5000)),
  };
  const send = useSendSupportRequest(api, (request) => {
    setSent(request);
    setSubject('');
    setMessage('');
    setPhone('');
    setTouched(false);
  });
  const failure =
    send.error instanceof ApiError && send.error.status === 429
      ? t('account:tooMany')
      : send.error
        ? t('account:sendFailed')
        : null;
  return (
    <Card.Root>
      <Card.Body>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (!errors.subject && !errors.message)
              send.mutate({
                subject: subject.trim(),
                area,
                message: message.trim(),
                ...(phone.trim() ? { phone: phone.trim() } : {}),
              });
          }}
        >
          <Stack gap="4">
            <Text as="h2" fontWeight="semibold">
              {t('account:requestTitle')}
            </Text>
            <TextField
              label={t('account:subject')}
              value={subject}
              maxLength={200}
              onChange={(e) => setSubject(e.target.value)}
              error={errors.subject}
              showError={touched}
            />
            <Field.Root>
              <Field.Label>{t('account:area')}</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field value={area} onChange={(e) => setArea(e.target.value as SupportArea)}>
                  {SUPPORT_AREAS.map((a) => (
                    <option key={a} value={a}>
                      {t(`account:areas.${a}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <Field.Root invalid={touched && !!errors.message} required>
              <Field.Label>{t('account:message')}</Field.Label>
              <Textarea rows={6} value={message} onChange={(e) => setMessage(e.target.value)} />
              <Field.HelperText>{t('account:messageHelp')}</Field.HelperText>
              <Field.ErrorText>{errors.message}</Field.ErrorText>
            </Field.Root>
            <Field.Root>
              <Field.Label>{t('account:callBack')}</Field.Label>
              <Input
                type="tel"
                autoComplete="tel"
                maxLength={40}
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
              />
            </Field.Root>
            <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={send.isPending} {...serverAction}>
              {t('account:send')}
            </Button>
            {sent ? (
              <StatusAlert status="success">
                <span data-testid="request-sent">{t('account:sent', { reference: sent.reference })}</span>
              </StatusAlert>
            ) : null}
            {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

/** Support: hours, contacts and a request form. */
export function SupportPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:support')} description={t('support:intro')} help="support.a1" />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        <Stack gap="3">
          <Text fontWeight="semibold" data-testid="support-hours">
            {t('support:hours')}
          </Text>
          <Text as="h2" fontWeight="semibold">
            {t('account:contacts')}
          </Text>
          <Text>
            {t('account:email')}: <a href={`mailto:${t('account:supportEmail')}`}>{t('account:supportEmail')}</a>
          </Text>
          <Text>
            {t('account:phone')}:{' '}
            <a href={`tel:${t('account:supportPhone').replace(/\s/g, '')}`}>{t('account:supportPhone')}</a>
          </Text>
          <Text color="fg.muted" fontSize="sm">
            {t('account:responseTime')}
          </Text>
        </Stack>
        <RequestForm />
      </SimpleGrid>
    </>
  );
}
