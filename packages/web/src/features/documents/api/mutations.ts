/**
 * The organisation's documents: uploading and deleting one read the list again; downloading one
 * changes nothing, unless it is gone (someone deleted it meanwhile: 404), when the list is read again
 * too, as after a deletion that finds it gone. Every failure is said on the page, in its own words:
 * no toast of the request's own. What the page does besides (a toast, closing a dialog) is handed in
 * and runs on the mutation itself.
 */
import { ApiError, type DocumentType, type FileEntry, type PortalClient } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../../../components/ui/save-blob';
import { documentsKeys } from './keys';

const quiet = { disableToast: true } as const;

/** Reads the organisation's documents again. */
function useRefresh(abbr: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: documentsKeys.all(abbr) });
}

/** A document deleted meanwhile by someone else. */
const gone = (error: Error) => error instanceof ApiError && error.status === 404;

/** Uploads a PDF as a document of this type. */
export function useUploadDocument(
  api: PortalClient,
  abbr: string,
  documentType: DocumentType,
  onUploaded: (saved: FileEntry) => void,
) {
  const refresh = useRefresh(abbr);
  return useMutation({
    mutationFn: (file: File) => api.legacy.files.upload({ body: { file, abbr, documentType } }, quiet),
    onSuccess: (saved) => {
      onUploaded(saved);
      refresh();
    },
  });
}

/** Saves a document as a file. */
export function useDownloadDocument(
  api: PortalClient,
  abbr: string,
  onFailed: (error: Error, document: FileEntry) => void,
) {
  const refresh = useRefresh(abbr);
  return useMutation({
    mutationFn: async (document: FileEntry) => {
      const file = await api.legacy.files.download(
        { fileName: document.fileName, abbr, documentType: document.documentType },
        quiet,
      );
      saveBlob(file.blob, document.fileName);
    },
    onError: (error, document) => {
      onFailed(error, document);
      if (gone(error)) refresh();
    },
  });
}

/** Deletes a document. */
export function useRemoveDocument(
  api: PortalClient,
  abbr: string,
  on: { onSuccess: (document: FileEntry) => void; onError: (error: Error, document: FileEntry) => void },
) {
  const refresh = useRefresh(abbr);
  return useMutation({
    mutationFn: (document: FileEntry) =>
      api.legacy.files.delete(
        { body: { abbr, documentType: document.documentType, fileName: document.fileName } },
        quiet,
      ),
    onSuccess: (_answer, document) => {
      on.onSuccess(document);
      refresh();
    },
    onError: (error, document) => {
      on.onError(error, document);
      if (gone(error)) refresh();
    },
  });
}
