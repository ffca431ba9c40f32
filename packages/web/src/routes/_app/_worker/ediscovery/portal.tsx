import { createFileRoute } from '@tanstack/react-router';
import { EdiscoveryPage } from '../../../../features/ediscovery/ediscovery-page';

export const Route = createFileRoute('/_app/_worker/ediscovery/portal')({ component: EdiscoveryPage });
