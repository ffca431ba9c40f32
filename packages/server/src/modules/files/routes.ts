/** Legacy files: an organisation's documents, listed, downloaded, uploaded (PDF, 3 MB) and deleted. */
import { DOCUMENT_TYPES, type DocumentType } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { routes, UNSTORABLE_TEXT_MESSAGE, unstorableText } from '../../http/contract.js';
import {
  deleteDocument,
  listDocuments,
  NOT_A_PDF,
  organisationByAbbr,
  parseFormData,
  readDocument,
  saveDocument,
} from './documents.js';

export function fileRoutes(ctx: AppContext) {
  return routes({
    'legacy.files.documents': {
      async handler({ abbr }, { actor }) {
        return listDocuments(ctx, await organisationByAbbr(ctx, actor.user, abbr));
      },
    },
    'legacy.files.reports': {
      async handler({ abbr }, { actor }) {
        return listDocuments(ctx, await organisationByAbbr(ctx, actor.user, abbr), 'reports');
      },
    },
    'legacy.files.download': {
      async handler({ fileName, abbr, documentType }, { actor, reply }) {
        const organisationId = await organisationByAbbr(ctx, actor.user, abbr);
        const file = await readDocument(ctx, organisationId, documentType, fileName);
        reply
          .type('application/pdf')
          .header(
            'Content-Disposition',
            `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          )
          .header('Content-Length', file.size);
        return file.stream;
      },
    },
    'legacy.files.upload': {
      async handler({ body }, { actor, request }) {
        if (!Buffer.isBuffer(body)) throw badRequest('Invalid request', { body: ['Expected multipart/form-data.'] });
        const form = parseFormData(body, request.headers['content-type']);
        const abbr = form.get('abbr')?.value.toString('utf8') ?? '';
        const type = form.get('documentType')?.value.toString('utf8') ?? '';
        const file = form.get('file');
        const errors: Record<string, string[]> = {};
        // The form's text is checked as the contract checks JSON bodies: storable, and of a bounded length.
        for (const field of unstorableText({ abbr, documentType: type, fileName: file?.fileName ?? '' }, 'body')) {
          errors[field] = [UNSTORABLE_TEXT_MESSAGE];
        }
        if (abbr.length > 200) errors['body/abbr'] = ['must NOT have more than 200 characters'];
        if (Object.keys(errors).length > 0) throw badRequest('Invalid request', errors);
        if (!abbr) errors.abbr = ['Field must not be empty.'];
        if (!(DOCUMENT_TYPES as readonly string[]).includes(type))
          errors.documentType = ['Choose contracts, reports or others.'];
        if (!file || file.fileName === undefined) errors.file = [NOT_A_PDF];
        if (Object.keys(errors).length > 0) throw badRequest('Invalid request', errors);
        const organisationId = await organisationByAbbr(ctx, actor.user, abbr);
        const saved = await saveDocument(ctx, organisationId, {
          type: type as DocumentType,
          fileName: file?.fileName ?? '',
          bytes: file?.value ?? new Uint8Array(),
          uploadedBy: actor.user.email,
        });
        await ctx.audit({
          ...actedBy(actor.user, actor.ip),
          organisationId,
          action: 'document.upload',
          target: `${type}/${saved.fileName}`,
          outcome: 'success',
          details: { size: saved.sizeBytes },
        });
        return saved;
      },
    },
    'legacy.files.delete': {
      async handler({ body }, { actor }) {
        const organisationId = await organisationByAbbr(ctx, actor.user, body.abbr);
        const name = await deleteDocument(ctx, organisationId, body.documentType, body.fileName);
        await ctx.audit({
          ...actedBy(actor.user, actor.ip),
          organisationId,
          action: 'document.delete',
          target: `${body.documentType}/${name}`,
          outcome: 'success',
        });
        return undefined;
      },
    },
  });
}
