// @vitest-environment node
/**
 * Documents end to end against their own server: a renamed non-PDF chosen by keyboard in the browser's
 * file picker and refused before sending, a real PDF uploaded, downloaded with the same bytes and deleted; the page at every breakpoint, in both languages.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectResponsiveAndAccessible, useBrowserSession } from './browser';

const session = useBrowserSession({ ownServer: true, acceptDownloads: true });
const dir = mkdtempSync(join(tmpdir(), 'portal-documents-e2e-'));

/** A small, valid PDF with one page and the given words on it. */
function realPdf(words: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 20 60 Td (${words}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 60 Td (${words}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) body += `${String(o).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('documents', () => {
  it('refuses a renamed non-PDF, uploads a PDF, downloads the same bytes and deletes it', async () => {
    const { page } = session;
    await session.signIn('/documents');
    // By keyboard: the tabs follow the arrow keys.
    await page.getByRole('tab', { name: 'Contracts' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('tab', { name: 'Reports', selected: true }).waitFor();

    const fake = join(dir, 'notes.pdf');
    writeFileSync(fake, 'PK\u0003\u0004 a zip archive with a PDF name');
    let uploads = 0;
    let deletions = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/files/upload-file')) uploads += 1;
      if (r.url().endsWith('/files/delete-file')) deletions += 1;
    });
    // Chosen by keyboard: the drop zone is a button that opens the browser's file picker.
    const dropzone = page.getByRole('button', { name: 'Choose a PDF file or drop it here' });
    // Waited for before the key is pressed: Playwright starts catching the picker when asked to.
    const chooser = page.waitForEvent('filechooser');
    await dropzone.focus();
    await page.keyboard.press('Enter');
    const picker = await chooser;
    expect(picker.isMultiple()).toBe(false);
    await picker.setFiles(fake);
    await page.getByTestId('upload-problem').filter({ hasText: '“notes.pdf” is not a PDF' }).waitFor();
    await page.getByRole('button', { name: 'Remove notes.pdf' }).waitFor();
    expect(uploads).toBe(0);

    // Chosen again (set on the file input, as a drop would): it replaces the refused file, whose problem goes.
    const bytes = realPdf('Quarterly report Q3');
    const real = join(dir, 'Q3 report.pdf');
    writeFileSync(real, bytes);
    await page.getByLabel('PDF file', { exact: true }).setInputFiles(real);
    await page.getByRole('button', { name: 'Remove Q3 report.pdf' }).waitFor();
    expect(await page.getByTestId('upload-problem').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove notes.pdf' }).count()).toBe(0);
    await page.getByLabel('Type').selectOption('reports');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const reports = page.getByRole('table', { name: 'Reports' });
    await reports.getByText('Q3 report.pdf').waitFor();
    expect(uploads).toBe(1);
    // The choice is cleared for the next document, the file input's too.
    await expect.poll(() => page.getByRole('button', { name: 'Remove Q3 report.pdf' }).count()).toBe(0);
    expect(
      await page.getByLabel('PDF file', { exact: true }).evaluate((input: HTMLInputElement) => input.files?.length),
    ).toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      reports.getByRole('button', { name: 'Download Q3 report.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Q3 report.pdf');
    expect(readFileSync((await download.path()) ?? '').equals(bytes)).toBe(true);

    // Deleted by keyboard, after the confirmation.
    await reports.getByRole('button', { name: 'Delete Q3 report.pdf' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog').getByRole('button', { name: 'Delete' });
    await confirm.waitFor();
    expect(deletions).toBe(0);
    await confirm.focus();
    await page.keyboard.press('Enter');
    await reports.getByText('There are no documents of this type yet.').waitFor();
    expect(deletions).toBe(1);
  });

  it('fits every breakpoint without sideways scrolling and has no WCAG 2.1 A/AA violation, in English and German', async () => {
    const { page } = session;
    // A listed contract (its row's buttons) and a refused file (its message) are on the page checked.
    await page.setViewportSize({ width: 1350, height: 900 });
    await page.goto('/documents');
    const contract = join(dir, 'Master services agreement with a rather long name 2026.pdf');
    writeFileSync(contract, realPdf('Master services agreement'));
    await page.getByLabel('PDF file', { exact: true }).setInputFiles(contract);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('table', { name: 'Contracts' }).getByText('Master services agreement').waitFor();
    const fake = join(dir, 'scan.pdf');
    writeFileSync(fake, 'GIF89a an image with a PDF name');
    await expectResponsiveAndAccessible(page, ['/documents'], {
      languages: ['en', 'de'],
      ready: async (_, { language }) => {
        if (language === 'de') await page.getByRole('heading', { name: 'Dokumente', level: 1 }).waitFor();
        await page.getByRole('table').getByText('Master services agreement').waitFor();
        await page.getByLabel(language === 'de' ? 'PDF-Datei' : 'PDF file', { exact: true }).setInputFiles(fake);
        await page.getByTestId('upload-problem').waitFor();
      },
    });
  });
});
