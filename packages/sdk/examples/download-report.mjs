// @ts-check
/**
 * Downloads the organisation's newest report file (Documents → Reports) and saves it under the name
 * the server gives. An organisation without one gets a one-page PDF uploaded first, so there is
 * something to download.
 *
 * Environment:
 *   PORTAL_URL           the portal's origin, such as https://portal.example.com
 *   PORTAL_API_KEY       the application key, sent as X-Api-Key (the server's PORTAL_API_KEY)
 *   PORTAL_TOKEN         a signed-in user's token: the accessToken of apollo /login (see sign-in.mjs)
 *                        or the token of the portal's code verification
 *   PORTAL_DOWNLOAD_DIR  where to save the file (default the current directory)
 *
 * Run: node examples/download-report.mjs
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createClient, isAllowedFileName, PortalError } from '@compliance-portal/sdk';

const env = (/** @type {string} */ name) => process.env[name] || fail(`Set ${name}.`);
/** @returns {never} */
function fail(/** @type {string} */ message) {
  console.error(message);
  process.exit(2);
}

const client = createClient({ origin: env('PORTAL_URL'), apiKey: env('PORTAL_API_KEY'), token: env('PORTAL_TOKEN') });

try {
  // Files are kept per organisation, named by its short name.
  const { worker } = await client.legacy.workers.client();
  const { abbr } = worker;

  let reports = await client.legacy.files.reports({ abbr });
  if (reports.length === 0) {
    const file = new File([onePagePdf('Monthly backup report')], 'monthly-backup-report.pdf', {
      type: 'application/pdf',
    });
    const uploaded = await client.legacy.files.upload({ body: { file, abbr, documentType: 'reports' } });
    console.log(`Uploaded ${uploaded.fileName} (${uploaded.sizeBytes} bytes)`);
    reports = await client.legacy.files.reports({ abbr });
  }

  const newest = reports.toSorted((a, b) => b.uploaded.localeCompare(a.uploaded))[0] ?? fail('No report file.');
  const { blob, fileName, contentType } = await client.legacy.files.download(
    { abbr, documentType: 'reports', fileName: newest.fileName },
    { timeoutMs: 60_000 },
  );
  // The name comes from the server's Content-Disposition: keep only a plain file name.
  const name = fileName && isAllowedFileName(basename(fileName)) ? basename(fileName) : 'report.pdf';
  const directory = process.env.PORTAL_DOWNLOAD_DIR || '.';
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, name), new Uint8Array(await blob.arrayBuffer()));
  console.log(`Saved ${join(directory, name)} (${blob.size} bytes, ${contentType}), uploaded by ${newest.uploadedBy}`);
} catch (error) {
  // Every failure of a call is a PortalError: ApiError (with status, code and requestId),
  // NetworkError or TimeoutError.
  if (!(error instanceof PortalError)) throw error;
  const id = 'requestId' in error && error.requestId ? ` (request ${error.requestId})` : '';
  fail(`${error.name}: ${error.message}${id}`);
}

/** A minimal valid one-page PDF showing `text`. */
function onePagePdf(/** @type {string} */ text) {
  const content = `BT /F1 24 Tf 72 760 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
