import { Button, Card, Field, FileUpload, HStack, NativeSelect, Stack, Tabs, Text } from '@chakra-ui/react';
import {
  ApiError,
  DOCUMENT_TYPES,
  type DocumentType,
  type FileEntry,
  isAllowedFileName,
  MAX_UPLOAD_BYTES,
  PortalError,
} from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { messageKeyOf } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { useUrlFilter, useUrlListState } from '../../shared/url-state';
import { useDownloadDocument, useRemoveDocument, useUploadDocument } from './api/mutations';
import { documentsQuery } from './api/queries';

/** The route whose address keeps the list and its type. */
const ROUTE = '/_app/_worker/documents';

/** A blob's bytes (FileReader where Blob.arrayBuffer is missing, as in older engines). */
function readBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** Why a file may not be uploaded (checked before anything is sent), or null: a PDF by content, 3 MB at most. */
export async function uploadProblem(file: File): Promise<'tooLarge' | 'notPdf' | 'badName' | null> {
  if (file.size > MAX_UPLOAD_BYTES) return 'tooLarge';
  const head = new Uint8Array(await readBytes(file.slice(0, 5)));
  const magic = [0x25, 0x50, 0x44, 0x46, 0x2d];
  if (file.size === 0 || !magic.every((b, i) => head[i] === b)) return 'notPdf';
  return isAllowedFileName(file.name) ? null : 'badName';
}

/** An arrow into a tray: the drop zone's mark, beside its words. */
function UploadMark() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 15V4m0 0L7.5 8.5M12 4l4.5 4.5M4 14v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function UploadForm({ abbr, type: initialType }: { abbr: string; type: DocumentType }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const problemId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState<DocumentType>(initialType);
  const [problem, setProblem] = useState<string | null>(null);
  const check = useValidator();
  const uploadAction = useServerAction(!!problem);
  const upload = useUploadDocument(api, abbr, type, (saved) => {
    showToast('success', t('documents:uploaded_ok', { name: saved.fileName }));
    // The chosen file goes, and with it the hidden input's.
    setFile(null);
  });
  const explain = (chosen: File, why: Awaited<ReturnType<typeof uploadProblem>>) =>
    why === 'tooLarge'
      ? t('documents:tooLarge', { name: chosen.name, size: formatBytes(chosen.size, i18n.language) })
      : why === 'notPdf'
        ? t('documents:notPdf', { name: chosen.name })
        : why === 'badName'
          ? t('documents:badName', { name: chosen.name })
          : null;
  const choose = async (chosen: File | null) => {
    setFile(chosen);
    upload.reset();
    setProblem(chosen ? explain(chosen, await uploadProblem(chosen)) : null);
  };
  // Checked again on sending, so a click before the first check has finished sends nothing wrong either.
  const send = async () => {
    // No file chosen: the field is empty.
    if (!file) return setProblem(check(null, rules.required()));
    const why = explain(file, await uploadProblem(file));
    setProblem(why);
    if (!why) upload.mutate(file);
  };
  const refusal = upload.error instanceof ApiError ? upload.error : null;
  const nameRefused =
    refusal?.body && typeof refusal.body === 'object' && 'errors' in refusal.body
      ? !!(refusal.body.errors as Record<string, unknown> | null)?.fileName
      : false;
  const failure = refusal
    ? nameRefused
      ? t('documents:badName', { name: upload.variables?.name ?? '' })
      : refusal.status === 400 || refusal.status === 413
        ? t('documents:serverRefused')
        : t(`apiErrors:${refusal.messageKey}`)
    : upload.error
      ? t(`apiErrors:${messageKeyOf(upload.error, 'generic')}`)
      : null;
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Text as="h2" fontWeight="semibold">
          {t('documents:upload')}
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Stack gap="3">
            {/* One file, chosen or dropped; whatever it is, it is checked here (the picker only offers PDFs). */}
            <FileUpload.Root
              maxFiles={1}
              acceptedFiles={file ? [file] : []}
              onFileChange={(details) => void choose(details.acceptedFiles[0] ?? null)}
              invalid={!!problem}
              translations={{
                dropzone: t('documents:chooseFile'),
                deleteFile: (chosen) => t('documents:unchooseNamed', { name: chosen.name }),
              }}
              gap="2"
              maxW="xl"
            >
              <FileUpload.HiddenInput accept="application/pdf,.pdf" />
              <FileUpload.Label>{t('documents:file')}</FileUpload.Label>
              <FileUpload.Dropzone
                minH="24"
                width="100%"
                flexDirection="row"
                colorPalette="blue"
                _invalid={{ borderColor: 'border.error' }}
                {...(problem ? { 'aria-describedby': problemId } : {})}
              >
                <UploadMark />
                <FileUpload.DropzoneContent>
                  <Text>{t('documents:chooseFile')}</Text>
                </FileUpload.DropzoneContent>
              </FileUpload.Dropzone>
              <FileUpload.ItemGroup>
                {file ? (
                  <FileUpload.Item file={file} p="2" ps="3">
                    <FileUpload.ItemPreview />
                    <FileUpload.ItemContent minW="0">
                      <FileUpload.ItemName wordBreak="break-word" />
                      <Text fontSize="xs" color="fg.muted">
                        {formatBytes(file.size, i18n.language)}
                      </Text>
                    </FileUpload.ItemContent>
                    <FileUpload.ItemDeleteTrigger asChild>
                      <Button size="xs" variant="ghost" boxSize="auto" px="2" py="1" alignSelf="center">
                        {t('documents:unchoose')}
                      </Button>
                    </FileUpload.ItemDeleteTrigger>
                  </FileUpload.Item>
                ) : null}
              </FileUpload.ItemGroup>
            </FileUpload.Root>
            <HStack gap="3" wrap="wrap" align="flex-end">
              <Field.Root width="auto">
                <Field.Label fontSize="sm">{t('documents:type')}</Field.Label>
                <NativeSelect.Root size="sm" width="auto">
                  <NativeSelect.Field value={type} onChange={(e) => setType(e.target.value as DocumentType)}>
                    {DOCUMENT_TYPES.map((v) => (
                      <option key={v} value={v}>
                        {t(`documents:types.${v}`)}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Button type="submit" size="sm" colorPalette="blue" loading={upload.isPending} {...uploadAction}>
                {t('documents:uploadButton')}
              </Button>
            </HStack>
            <Text fontSize="xs" color="fg.muted">
              {t('documents:rule')}
            </Text>
            {problem ? (
              <StatusAlert status="error">
                <span data-testid="upload-problem" id={problemId}>
                  {problem}
                </span>
              </StatusAlert>
            ) : null}
            {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * The documents of a type, 10 a page by name (page, size, sort, order and search in the address with
 * the type). They are read all at once and paged, sorted and searched here, so that the list state does
 * not change what is read.
 */
const DOCUMENT_LIST = { sort: 'fileName', order: 'asc', pageSize: 10 } as const;
/** The tab the page opens on. */
const DEFAULT_TYPE: DocumentType = 'contracts';

function DocumentList({ abbr, type }: { abbr: string; type: DocumentType }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const [state, setState] = useUrlListState(ROUTE, DOCUMENT_LIST);
  const [removing, setRemoving] = useState<FileEntry | null>(null);
  const serverAction = useServerAction();
  const documents = useQuery(documentsQuery(api, abbr));
  // A document someone else deleted meanwhile: said in words (the list is read again).
  // No toast of the request's own, a network failure included: said here.
  const failed = (error: Error, f: FileEntry) => {
    if (!(error instanceof PortalError)) return;
    const gone = error instanceof ApiError && error.status === 404;
    showToast('error', gone ? t('documents:gone', { name: f.fileName }) : t(`apiErrors:${error.messageKey}`));
  };
  const download = useDownloadDocument(api, abbr, failed);
  const remove = useRemoveDocument(api, abbr, {
    onSuccess: (f) => {
      setRemoving(null);
      showToast('success', t('documents:removed', { name: f.fileName }));
    },
    onError: (error, f) => {
      setRemoving(null);
      failed(error, f);
    },
  });
  const search = state.search?.trim().toLowerCase() ?? '';
  const sorted = (documents.data ?? [])
    .filter((d) => d.documentType === type && (!search || d.fileName.toLowerCase().includes(search)))
    .sort((a, b) => {
      const by =
        state.sort === 'uploaded'
          ? a.uploaded.localeCompare(b.uploaded)
          : state.sort === 'sizeBytes'
            ? a.sizeBytes - b.sizeBytes
            : a.fileName.localeCompare(b.fileName, lang);
      return state.order === 'desc' ? -by : by;
    });
  const rows = sorted.slice((state.page - 1) * state.pageSize, state.page * state.pageSize);
  const columns: Column<FileEntry>[] = [
    { key: 'fileName', header: t('documents:name'), cell: (d) => d.fileName, sortable: true },
    {
      key: 'sizeBytes',
      header: t('documents:size'),
      cell: (d) => formatBytes(d.sizeBytes, lang),
      sortable: true,
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'uploaded',
      header: t('documents:uploaded'),
      cell: (d) => formatDateTime(d.uploaded, lang),
      sortable: true,
      hideBelow: 'md',
    },
    { key: 'uploadedBy', header: t('documents:uploadedBy'), cell: (d) => d.uploadedBy ?? '—', hideBelow: 'lg' },
    {
      key: 'actions',
      header: '',
      align: 'end',
      cell: (d) => (
        <HStack gap="1" justify="flex-end">
          <Button
            size="xs"
            variant="outline"
            aria-label={t('documents:download', { name: d.fileName })}
            loading={download.isPending && download.variables?.fileName === d.fileName}
            onClick={() => download.mutate(d)}
            {...serverAction}
          >
            {t('common:download')}
          </Button>
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            aria-label={t('documents:remove', { name: d.fileName })}
            onClick={() => setRemoving(d)}
            {...serverAction}
          >
            {t('documents:deleteTrigger')}
          </Button>
        </HStack>
      ),
    },
  ];
  return (
    <>
      <DataTable
        label={t(`documents:types.${type}`)}
        columns={columns}
        rows={documents.data ? rows : undefined}
        total={sorted.length}
        rowKey={(d) => `${d.documentType}/${d.fileName}`}
        state={state}
        onStateChange={setState}
        loading={documents.isFetching}
        error={documents.error}
        onRetry={() => documents.refetch()}
        emptyText={t('documents:empty')}
        searchPlaceholder={t('documents:search')}
      />
      <ConfirmDialog
        open={!!removing}
        title={t('documents:removeTitle')}
        confirmLabel={t('documents:delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        <Text>{t('documents:removeText', { name: removing?.fileName ?? '' })}</Text>
      </ConfirmDialog>
    </>
  );
}

/** Documents by type (contracts, reports, others): list, download, delete, upload (PDF, 3 MB). */
export function DocumentsPage() {
  const { t } = useTranslation();
  const worker = useWorker();
  const [type, setType] = useUrlFilter<DocumentType>(ROUTE, 'type', DEFAULT_TYPE);
  const abbr = worker?.abbr ?? '';
  return (
    <>
      <PageHeader title={t('pages:documents')} description={t('documents:intro')} help="documents.a1" />
      {!abbr ? (
        <StatusAlert status="error">{t('documents:noOrganisation')}</StatusAlert>
      ) : (
        <Stack gap="5">
          <Tabs.Root value={type} onValueChange={(e) => setType(e.value as DocumentType)} variant="line">
            <Tabs.List>
              {DOCUMENT_TYPES.map((v) => (
                <Tabs.Trigger key={v} value={v}>
                  {t(`documents:types.${v}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {DOCUMENT_TYPES.map((v) => (
              <Tabs.Content key={v} value={v}>
                {/* Only the open tab's list: the list state in the address is that tab's. */}
                {v === type ? <DocumentList abbr={abbr} type={v} /> : null}
              </Tabs.Content>
            ))}
          </Tabs.Root>
          <UploadForm key={type} abbr={abbr} type={type} />
        </Stack>
      )}
    </>
  );
}
