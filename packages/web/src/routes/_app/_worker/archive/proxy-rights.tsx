import { createFileRoute } from '@tanstack/react-router';
import { ProxyRightsPage } from '../../../../features/archive/proxy-rights-page';

export const Route = createFileRoute('/_app/_worker/archive/proxy-rights')({ component: ProxyRightsPage });
