import {
  type DeleteFileRequest,
  type DocumentType,
  type FileEntry,
  isAllowedFileName,
  MAX_UPLOAD_BYTES,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';
import { uploadProblem } from './documents-page';

startMsw();
restoreOnline();

const pdf = (size: number, name = 'contract.pdf') => {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode('%PDF-1.7'), 0);
  return new File([bytes], name, { type: 'application/pdf' });
};
const entry = (fileName: string, documentType: DocumentType): FileEntry => ({
  fileName,
  documentType,
  sizeBytes: 2048,
  contentType: 'application/pdf',
  uploaded: '2026-11-20T10:00:00.000Z',
  uploadedBy: 'admin@contoso.example',
});

describe('the upload check', () => {
  it('takes a PDF of up to 3 MB by its content, not its name', async () => {
    expect(await uploadProblem(pdf(MAX_UPLOAD_BYTES))).toBeNull();
    expect(await uploadProblem(pdf(MAX_UPLOAD_BYTES + 1))).toBe('tooLarge');
    expect(await uploadProblem(new File([new TextEncoder().encode('PK\u0003\u0004zip')], 'renamed.pdf'))).toBe(
      'notPdf',
    );
    expect(await uploadProblem(new File([], 'empty.pdf'))).toBe('notPdf');
  });

  it('refuses the names the server refuses: a path, "..", reserved characters, more than 255 characters', async () => {
    expect(await uploadProblem(pdf(100, `${'x'.repeat(251)}.pdf`))).toBeNull();
    expect(await uploadProblem(pdf(100, `${'x'.repeat(252)}.pdf`))).toBe('badName');
    for (const name of [
      '..',
      '.',
      'a..b.pdf',
      'a\\b.pdf',
      'a:b.pdf',
      'bell\u0007.pdf',
      'CON',
      'con.pdf',
      'LPT1.pdf',
      'report.pdf.',
      'report.pdf ',
      'invoice\u202efdp.exe',
      'line\u2028break.pdf',
    ])
      expect(await uploadProblem(pdf(100, name)), JSON.stringify(name)).toBe('badName');
    expect(isAllowedFileName('Q3 report (final).pdf')).toBe(true);
    expect(isAllowedFileName('Contract.pdf')).toBe(true);
    expect(isAllowedFileName('dir/x.pdf')).toBe(false);
  });
});

describe('the documents page', () => {
  it('lists documents by type, refuses a non-PDF before sending, uploads a PDF and deletes after a confirmation', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let stored = [entry('Master agreement.pdf', 'contracts'), entry('Q3 report.pdf', 'reports')];
    let uploads = 0;
    let deleted: DeleteFileRequest | undefined;
    const { user } = await renderPortal('/documents', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': () => HttpResponse.json(stored),
      'legacy.files.upload': async ({ request }) => {
        uploads += 1;
        const form = await request.formData();
        const file = form.get('file') as File;
        // jsdom's File loses its name on the way through Node's fetch; the bytes arrive whole.
        expect(file.size).toBe(5000);
        expect(form.get('documentType')).toBe('contracts');
        const saved = entry('New contract.pdf', 'contracts');
        stored = [...stored, saved];
        expect(form.get('abbr')).toBe('contoso');
        return HttpResponse.json(saved, { status: 201 });
      },
      'legacy.files.delete': async ({ request }) => {
        deleted = await request.json();
        stored = stored.filter((d) => d.fileName !== deleted?.fileName);
        return new HttpResponse(null, { status: 200 });
      },
    });
    const contracts = await screen.findByRole('table', { name: 'Contracts' });
    await within(contracts).findByText('Master agreement.pdf');
    expect(within(contracts).queryByText('Q3 report.pdf')).toBeNull();

    const input = screen.getByLabelText('PDF file');
    await user.upload(
      input,
      new File([new TextEncoder().encode('PK\u0003\u0004zip')], 'renamed.pdf', { type: 'application/pdf' }),
    );
    expect((await screen.findByTestId('upload-problem')).textContent).toContain('“renamed.pdf” is not a PDF');
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
    expect(uploads).toBe(0);
    // The drop zone is a button that opens the picker, described by the problem; the chosen file is
    // listed, and its remove button names it.
    const dropzone = screen.getByRole('button', { name: 'Choose a PDF file or drop it here' });
    expect(dropzone.getAttribute('tabindex')).toBe('0');
    expect(document.getElementById(dropzone.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      '“renamed.pdf” is not a PDF',
    );
    const unchoose = screen.getByRole('button', { name: 'Remove renamed.pdf' });
    expect(unchoose.textContent).toBe('Remove');
    await user.click(unchoose);
    await waitFor(() => expect(screen.queryByTestId('upload-problem')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Remove renamed.pdf' })).toBeNull();

    await user.upload(input, pdf(5000, 'New contract.pdf'));
    await screen.findByRole('button', { name: 'Remove New contract.pdf' });
    expect(screen.getByText('4.9 KB')).toBeTruthy();
    expect(screen.queryByTestId('upload-problem')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await within(contracts).findByText('New contract.pdf');
    expect(uploads).toBe(1);
    // Uploaded: the choice is cleared, for the next document.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove New contract.pdf' })).toBeNull());

    await user.click(within(contracts).getByRole('button', { name: 'Delete Master agreement.pdf' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(deleted).toBeUndefined();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(deleted).toEqual({ abbr: 'contoso', documentType: 'contracts', fileName: 'Master agreement.pdf' }),
    );
    await waitFor(() => expect(within(contracts).queryByText('Master agreement.pdf')).toBeNull());

    await user.click(screen.getByRole('tab', { name: 'Reports' }));
    expect(
      await within(await screen.findByRole('table', { name: 'Reports' })).findByText('Q3 report.pdf'),
    ).toBeTruthy();
  });
});

describe('an upload without a file', () => {
  it('says the field is empty and sends nothing', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let uploads = 0;
    const { user } = await renderPortal('/documents', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': respond('legacy.files.documents', []),
      'legacy.files.upload': () => {
        uploads += 1;
        return refuse(500, { message: 'not expected' });
      },
    });
    await screen.findByRole('table', { name: 'Contracts' });
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect((await screen.findByTestId('upload-problem')).textContent).toBe('Field must not be empty.');
    expect(uploads).toBe(0);
  });
});

describe('a file dropped on the drop zone', () => {
  /** What a browser's drop carries: one file, as an entry of the data transfer (jsdom has no DataTransfer). */
  const transferOf = (file: File) => ({
    types: ['Files'],
    files: [file],
    items: [{ kind: 'file', webkitGetAsEntry: () => ({ isFile: true, isDirectory: false }), getAsFile: () => file }],
    dropEffect: 'none',
  });

  it('is checked like a chosen one: too large is refused, a PDF is uploaded', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let uploads = 0;
    const { user } = await renderPortal('/documents', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': respond('legacy.files.documents', []),
      'legacy.files.upload': async () => {
        uploads += 1;
        return HttpResponse.json(entry('Dropped.pdf', 'contracts'), { status: 201 });
      },
    });
    await screen.findByRole('table', { name: 'Contracts' });
    const dropzone = screen.getByRole('button', { name: 'Choose a PDF file or drop it here' });
    const drop = (file: File) => {
      fireEvent.dragOver(dropzone, { dataTransfer: transferOf(file) });
      fireEvent.drop(dropzone, { dataTransfer: transferOf(file) });
    };
    drop(pdf(MAX_UPLOAD_BYTES + 1, 'Huge.pdf'));
    expect((await screen.findByTestId('upload-problem')).textContent).toBe(
      'The file must be a PDF of at most 3 MB: “Huge.pdf” has 3 MB.',
    );
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
    drop(pdf(3000, 'Dropped.pdf'));
    await screen.findByRole('button', { name: 'Remove Dropped.pdf' });
    await waitFor(() => expect(screen.queryByTestId('upload-problem')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(uploads).toBe(1));
  });
});

describe('a refused upload', () => {
  it('shows the server’s refusal in the rule’s words and keeps the list as it was', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let uploads = 0;
    const { user } = await renderPortal('/documents', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': respond('legacy.files.documents', []),
      'legacy.files.upload': () => {
        uploads += 1;
        return refuse(413, { message: 'The file must be a PDF of at most 3 MB.' });
      },
    });
    const contracts = await screen.findByRole('table', { name: 'Contracts' });
    await within(contracts).findByText('There are no documents of this type yet.');
    await user.upload(screen.getByLabelText('PDF file'), pdf(2000, 'scan.pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('The server refused the file: it must be a PDF of at most 3 MB.')).toBeTruthy();
    expect(uploads).toBe(1);
    expect(within(contracts).getByText('There are no documents of this type yet.')).toBeTruthy();
  });
});

describe('a document deleted meanwhile', () => {
  it('says so on download and brings the list up to date', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let stored = [entry('Old contract.pdf', 'contracts')];
    const { user } = await renderPortal('/documents', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': () => HttpResponse.json(stored),
      'legacy.files.download': () => {
        stored = [];
        return refuse(404, { message: 'Document not found' });
      },
    });
    const contracts = await screen.findByRole('table', { name: 'Contracts' });
    await user.click(await within(contracts).findByRole('button', { name: 'Download Old contract.pdf' }));
    expect(await screen.findByText(/“Old contract.pdf” is no longer there/)).toBeTruthy();
    await within(contracts).findByText('There are no documents of this type yet.');
  });
});

describe('the documents page offline', () => {
  it('disables upload, download and delete with the reason while the tabs stay, and enables them online', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const { user } = await renderPortal('/documents', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': respond('legacy.files.documents', [
        entry('Master agreement.pdf', 'contracts'),
        entry('Q3 report.pdf', 'reports'),
      ]),
    });
    const contracts = await screen.findByRole('table', { name: 'Contracts' });
    const buttons = [
      await within(contracts).findByRole('button', { name: 'Download Master agreement.pdf' }),
      within(contracts).getByRole('button', { name: 'Delete Master agreement.pdf' }),
      screen.getByRole('button', { name: 'Upload' }),
    ];
    for (const button of buttons) expectServerAction(button, false);
    setOnline(false);
    for (const button of buttons) expectServerAction(button, true);
    await user.click(screen.getByRole('tab', { name: 'Reports' }));
    const reports = await screen.findByRole('table', { name: 'Reports' });
    expectServerAction(within(reports).getByRole('button', { name: 'Download Q3 report.pdf' }), true);
    setOnline(true);
    expectServerAction(within(reports).getByRole('button', { name: 'Download Q3 report.pdf' }), false);
    expectServerAction(screen.getByRole('button', { name: 'Upload' }), false);
  });
});

describe('the documents list in the address', () => {
  it('opens on the tab, page and order of the address, and writes the tab chosen there', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const contracts = Array.from({ length: 12 }, (_, i) =>
      entry(`Contract ${String(i + 1).padStart(2, '0')}.pdf`, 'contracts'),
    );
    const { user, portal } = await renderPortal('/documents?order=desc&page=2', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': respond('legacy.files.documents', [...contracts, entry('Q3 report.pdf', 'reports')]),
    });
    const table = await screen.findByRole('table', { name: 'Contracts' });
    // Newest name first, 10 a page: the second page holds the last two.
    await within(table).findByText('Contract 02.pdf');
    expect(within(table).getByText('Contract 01.pdf')).toBeTruthy();
    expect(within(table).queryByText('Contract 12.pdf')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Reports' }));
    expect(
      await within(await screen.findByRole('table', { name: 'Reports' })).findByText('Q3 report.pdf'),
    ).toBeTruthy();
    // Another tab opens on its first page; the order stays.
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ type: 'reports', order: 'desc' }));
  });

  it('opens on the search of the address', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    await renderPortal('/documents?type=reports&search=annual', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.files.documents': respond('legacy.files.documents', [
        entry('Q3 report.pdf', 'reports'),
        entry('Annual report.pdf', 'reports'),
      ]),
    });
    const table = await screen.findByRole('table', { name: 'Reports' });
    await within(table).findByText('Annual report.pdf');
    expect(within(table).queryByText('Q3 report.pdf')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Reports' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('annual');
  });
});
