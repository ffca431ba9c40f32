import { createFileRoute } from '@tanstack/react-router';
import { ErrorPage } from '../features/errors/error-page';

export const Route = createFileRoute('/error-page')({ component: ErrorPage });
