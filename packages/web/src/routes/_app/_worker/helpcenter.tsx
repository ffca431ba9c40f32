import { createFileRoute } from '@tanstack/react-router';
import { HelpcenterPage } from '../../../features/account/helpcenter-page';

export const Route = createFileRoute('/_app/_worker/helpcenter')({ component: HelpcenterPage });
