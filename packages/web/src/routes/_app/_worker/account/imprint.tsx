import { createFileRoute } from '@tanstack/react-router';
import { ImprintPage } from '../../../../features/account/imprint-page';

export const Route = createFileRoute('/_app/_worker/account/imprint')({ component: ImprintPage });
