import { createFileRoute } from '@tanstack/react-router';
import { NotificationSettingsPage } from '../../../features/account/notification-settings-page';

export const Route = createFileRoute('/_app/account/settings')({ component: NotificationSettingsPage });
