import { Badge, Button, Card, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { Client, PortalClient } from '@compliance-portal/sdk';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { readWorker, storeWorker } from '../../session/storage';

export const clientsQueryOptions = (api: PortalClient) =>
  queryOptions({ queryKey: ['legacy', 'clients'], queryFn: () => api.legacy.workers.clients() });

/** A partner's client organisations: choose one and work as that client. */
export function PartnerSetupPage() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useQuery(clientsQueryOptions(api));
  const current = readWorker()?.clientId;

  const workAs = (client: Client) => {
    storeWorker(client.worker);
    // Everything cached belongs to the previous client.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'legacy' || q.queryKey[1] !== 'clients' });
    void navigate({ to: '/' });
  };

  return (
    <>
      <PageHeader title={t('pages:partnerSetup')} description={t('partner:chooseClient')} />
      {clients.isPending ? (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height="32" />
          ))}
        </SimpleGrid>
      ) : clients.isError ? (
        <Button onClick={() => void clients.refetch()} alignSelf="flex-start">
          {t('common:retry')}
        </Button>
      ) : clients.data.length === 0 ? (
        <Text>{t('partner:noClients')}</Text>
      ) : (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4" data-testid="client-list">
          {clients.data.map((client) => (
            <Card.Root key={client.clientId} variant={client.clientId === current ? 'subtle' : 'outline'}>
              <Card.Body>
                <Stack gap="2">
                  <Text fontWeight="semibold">{client.name}</Text>
                  <Badge alignSelf="flex-start" colorPalette={client.license === 'trial' ? 'orange' : 'green'}>
                    {t('partner:licence', { licence: client.license })}
                  </Badge>
                </Stack>
              </Card.Body>
              <Card.Footer>
                <Button size="sm" colorPalette="blue" onClick={() => workAs(client)}>
                  {t('partner:workAs', { name: client.name })}
                </Button>
              </Card.Footer>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
