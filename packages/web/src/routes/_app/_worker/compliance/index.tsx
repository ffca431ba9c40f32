import { createFileRoute } from '@tanstack/react-router';
import { loadFileManager } from '../../../../features/data-management/file-manager/load';
import { validateFileManagerSearch } from '../../../../features/data-management/file-manager/search';
import { FileManagerPage } from '../../../../features/data-management/file-manager-page';

export const Route = createFileRoute('/_app/_worker/compliance/')({
  validateSearch: validateFileManagerSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps, cause }) =>
    loadFileManager(context.queryClient, context.api, context.tenantId, deps, cause !== 'stay'),
  component: FileManagerPage,
});
