/**
 * A site's pages as Graph v1.0 serves them: the pages of its Site Pages library (`/pages`, each a
 * sitePage, and the same cast to sitePage), one page with `$expand=canvasLayout` (horizontal sections,
 * their columns and web parts: text with its HTML, or one of the standard web parts Graph writes), its
 * canvas and web parts; a page created with its canvas (checked out to its author, as SharePoint
 * makes one) and published.
 */
import { randomUUID } from 'node:crypto';
import type { SimTenant } from '../model.js';
import type { ProcessedContentKind, SimPage, SimSection, SimWebPart, WebPartData } from '../sites.js';
import { identityOf, type SimSite, siteOf, writerOf } from './lists.js';
import { graphError, jsonBody, page, type SimRequest, type SimResponse } from './odata.js';
import { expandText, parseExpand, QueryError } from './query.js';
import { type GraphCall, type GraphRoute, type RouteOptions, route } from './router.js';

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';
const invalid = (message: string) => graphError(400, 'invalidRequest', message);

/** The standard web parts Graph writes on a page (its documented list), by their type id. */
const SUPPORTED_WEB_PARTS: Record<string, string> = {
  'e377ea37-9047-43b9-8cdb-a761be2f8e09': 'Bing Maps',
  '0f087d7f-520e-42b7-89c0-496aaf979d58': 'Button',
  'df8e44e7-edd5-46d5-90da-aca1539313b8': 'Call To Action',
  '2161a1c6-db61-4731-b97c-3cdb303f7cbb': 'Divider',
  'b7dd04e1-19ce-4b24-9132-b60a1c2b910d': 'Document Embed',
  'd1d91016-032f-456d-98a4-721247c305e8': 'Image',
  'af8be689-990e-492a-81f7-ba3e4cd3ed9c': 'Image Gallery',
  '6410b3b6-d440-4663-8744-378976dc041e': 'Link Preview',
  'e84a8ca2-f63c-4fb9-bc0b-d8eef5ccb22b': 'Org Chart',
  '7f718435-ee4d-431c-bdbf-9c4ff326f46e': 'People',
  'c70391ea-0b10-4ee9-b2b4-006d3fcad0cd': 'Quick Links',
  '8654b779-4886-46d4-8ffb-b5ed960ee986': 'Spacer',
  '544dd15b-cf3c-441b-96da-004d5a8cea1d': 'Youtube Embed',
  'cbe7b0a9-3504-44dd-a3a3-0e5cacd07788': 'Title Area',
};

const etagOf = (page: SimPage) => `"{${page.id.toUpperCase()}},${page.changed + 1}"`;

function webPartJson(part: SimWebPart) {
  return part.kind === 'text'
    ? { '@odata.type': '#microsoft.graph.textWebPart', id: part.id, innerHtml: part.innerHtml }
    : {
        '@odata.type': '#microsoft.graph.standardWebPart',
        id: part.id,
        webPartType: part.webPartType,
        data: part.data,
      };
}

const canvasJson = (page: SimPage) => ({
  horizontalSections: page.sections.map((s) => ({
    id: s.id,
    layout: s.layout,
    emphasis: s.emphasis,
    columns: s.columns.map((c) => ({ id: c.id, width: c.width, webparts: c.webparts.map(webPartJson) })),
  })),
});

function pageJson(tenant: SimTenant, site: SimSite, p: SimPage, canvas: boolean) {
  return {
    '@odata.type': '#microsoft.graph.sitePage',
    '@odata.etag': etagOf(p),
    createdDateTime: p.created,
    description: p.description,
    eTag: etagOf(p),
    id: p.id,
    lastModifiedDateTime: p.modified,
    name: p.name,
    webUrl: `${site.webUrl}/SitePages/${p.name}`,
    title: p.title,
    pageLayout: p.pageLayout,
    promotionKind: 'page',
    showComments: p.showComments,
    showRecommendedPages: p.showRecommendedPages,
    thumbnailWebUrl: `${site.webUrl}/_layouts/15/images/sitepagethumbnail.png`,
    createdBy: identityOf(tenant, p.author),
    lastModifiedBy: identityOf(tenant, p.editor),
    parentReference: { siteId: site.id },
    publishingState: {
      level: p.level,
      versionId: p.versionId,
      ...(p.checkedOutBy ? { checkedOutBy: identityOf(tenant, p.checkedOutBy) } : {}),
    },
    reactions: {},
    titleArea: p.titleArea,
    ...(canvas ? { canvasLayout: canvasJson(p) } : {}),
  };
}

/** Whether `$expand` asks for the canvas; a 400 for anything else, as Graph answers a property it has not. */
function expandsCanvas(request: SimRequest): boolean | SimResponse {
  const text = expandText(request.query);
  if (!text) return false;
  try {
    const names = parseExpand(text).map((e) => e.name);
    const other = names.find((n) => n !== 'canvasLayout' && n !== 'webParts');
    if (other)
      return graphError(
        400,
        'BadRequest',
        `Parsing OData Select and Expand failed: Could not find a property named '${other}' on type 'microsoft.graph.sitePage'.`,
      );
    return names.includes('canvasLayout');
  } catch (error) {
    if (error instanceof QueryError) return graphError(400, 'BadRequest', error.message);
    throw error;
  }
}

/** A route on one page of a live site: unknown ones answer 404. */
const onPage = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, site: SimSite, page: SimPage) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  route(
    method,
    patterns,
    (call) => {
      const site = siteOf(call);
      if (isAnswer(site)) return site;
      const found = site.pages.find((p) => p.id.toLowerCase() === (call.params.page ?? '').toLowerCase());
      return found ? handle(call, site, found) : graphError(404, 'itemNotFound', 'The page was not found.');
    },
    options,
  );

/** The members of horizontalSectionLayoutType and sectionEmphasisType, and titleArea's properties. */
const LAYOUTS = new Set([
  'none',
  'oneColumn',
  'twoColumns',
  'threeColumns',
  'oneThirdLeftColumn',
  'oneThirdRightColumn',
  'fullWidth',
]);
const EMPHASES = new Set(['none', 'neutral', 'soft', 'strong']);
const TITLE_AREA = new Set([
  'alternativeText',
  'enableGradientEffect',
  'imageWebUrl',
  'layout',
  'showAuthor',
  'showPublishedDate',
  'showTextBlockAboveTitle',
  'textAboveTitle',
  'textAlignment',
]);

const PROCESSED: readonly ProcessedContentKind[] = ['htmlStrings', 'searchablePlainTexts', 'imageSources', 'links'];

/** A standard web part's data: the properties webPartData declares, what else was sent left out as Graph does. */
function webPartData(input: unknown): WebPartData {
  const d = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof d[key] === 'string' ? { [key]: d[key] as string } : {});
  const processed = d.serverProcessedContent as Record<string, unknown> | undefined;
  const content: WebPartData['serverProcessedContent'] = {};
  for (const kind of PROCESSED) {
    const pairs = processed?.[kind];
    if (!Array.isArray(pairs)) continue;
    content[kind] = pairs
      .filter((p): p is { key: string; value: string } => typeof p?.key === 'string' && typeof p?.value === 'string')
      .map((p) => ({ key: p.key, value: p.value }));
  }
  return {
    ...text('dataVersion'),
    ...text('description'),
    ...text('title'),
    ...(d.properties !== undefined ? { properties: d.properties } : {}),
    ...(processed ? { serverProcessedContent: content } : {}),
  };
}

/** The canvas of a page being created, or why Graph would refuse it. */
function sectionsOf(canvas: unknown): SimSection[] | string {
  if (canvas === undefined || canvas === null) return [];
  const c = canvas as { horizontalSections?: unknown; verticalSection?: unknown };
  if (c.verticalSection) return 'The simulator keeps horizontal sections only; leave verticalSection out.';
  if (c.horizontalSections === undefined) return [];
  if (!Array.isArray(c.horizontalSections)) return 'horizontalSections must be an array.';
  const sections: SimSection[] = [];
  for (const [s, raw] of c.horizontalSections.entries()) {
    const section = (raw ?? {}) as { id?: unknown; layout?: unknown; emphasis?: unknown; columns?: unknown };
    const layout = typeof section.layout === 'string' ? section.layout : 'oneColumn';
    if (!LAYOUTS.has(layout)) return `'${layout}' is not a horizontalSectionLayoutType.`;
    const emphasis = typeof section.emphasis === 'string' ? section.emphasis : 'none';
    if (!EMPHASES.has(emphasis)) return `'${emphasis}' is not a sectionEmphasisType.`;
    const columns: SimSection['columns'] = [];
    for (const [k, rawColumn] of (Array.isArray(section.columns) ? section.columns : []).entries()) {
      const column = (rawColumn ?? {}) as { id?: unknown; width?: unknown; webparts?: unknown };
      const webparts: SimWebPart[] = [];
      for (const rawPart of Array.isArray(column.webparts) ? column.webparts : []) {
        const part = (rawPart ?? {}) as Record<string, unknown>;
        const id = typeof part.id === 'string' ? part.id : randomUUID();
        if (typeof part.innerHtml === 'string') webparts.push({ id, kind: 'text', innerHtml: part.innerHtml });
        else if (typeof part.webPartType === 'string' && SUPPORTED_WEB_PARTS[part.webPartType.toLowerCase()])
          webparts.push({
            id,
            kind: 'standard',
            webPartType: part.webPartType.toLowerCase(),
            data: webPartData(part.data),
          });
        else return `The web part ${id} is neither a text web part nor one of the standard web parts Graph writes.`;
      }
      columns.push({
        id: typeof column.id === 'string' ? column.id : String(k + 1),
        width: Number.isInteger(column.width) ? Number(column.width) : 12,
        webparts,
      });
    }
    sections.push({ id: typeof section.id === 'string' ? section.id : String(s + 1), layout, emphasis, columns });
  }
  return sections;
}

/** The title area's properties titleArea declares (its image's processed content aside), the others left out. */
function titleAreaOf(input: unknown): Record<string, unknown> {
  const given = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(given).filter(([key]) => TITLE_AREA.has(key)));
}

/** POST /sites/{id}/pages: a sitePage with its canvas, checked out to its author until published. */
function createPage(call: GraphCall, site: SimSite): SimResponse {
  const body = jsonBody<Record<string, unknown>>(call.request);
  const type = String(body['@odata.type'] ?? '').replace(/^#/, '');
  if (type !== 'microsoft.graph.sitePage')
    return invalid('The request body must name its type: "@odata.type": "#microsoft.graph.sitePage".');
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!/^[^\\/:*?"<>|#%]+\.aspx$/i.test(name)) return invalid('A page needs a name ending in .aspx.');
  if (site.pages.some((p) => p.name.toLowerCase() === name.toLowerCase()))
    return graphError(409, 'nameAlreadyExists', `A page named ${name} already exists.`);
  const layout = body.pageLayout ?? 'article';
  if (layout !== 'article' && layout !== 'home')
    return invalid(`'${String(layout)}' is not a page layout Graph makes.`);
  const sections = sectionsOf(body.canvasLayout);
  if (typeof sections === 'string') return invalid(sections);
  const who = writerOf(call);
  const now = new Date().toISOString();
  call.tenant.clock += 1;
  const created: SimPage = {
    id: randomUUID(),
    name,
    title: typeof body.title === 'string' ? body.title : name.replace(/\.aspx$/i, ''),
    description: typeof body.description === 'string' ? body.description : '',
    pageLayout: layout,
    created: now,
    author: who,
    modified: now,
    editor: who,
    level: 'checkout',
    versionId: '0.1',
    checkedOutBy: who,
    showComments: body.showComments !== false,
    showRecommendedPages: body.showRecommendedPages === true,
    titleArea: titleAreaOf(body.titleArea),
    sections,
    changed: call.tenant.clock,
  };
  site.pages.push(created);
  return { status: 201, json: pageJson(call.tenant, site, created, false) };
}

/** POST …/publish: checked in and published as the next major version. */
function publish(call: GraphCall, _site: SimSite, p: SimPage): SimResponse {
  if (p.level !== 'published') {
    call.tenant.clock += 1;
    p.versionId = `${Number.parseInt(p.versionId, 10) + 1}.0`;
    p.level = 'published';
    delete p.checkedOutBy;
    p.modified = new Date().toISOString();
    p.editor = writerOf(call);
    p.changed = call.tenant.clock;
  }
  return { status: 204 };
}

/** The site's pages, alphabetically by name as Graph lists them. */
function listPages(call: GraphCall): SimResponse {
  const site = siteOf(call);
  if (isAnswer(site)) return site;
  const canvas = expandsCanvas(call.request);
  if (isAnswer(canvas)) return canvas;
  const sorted = [...site.pages].sort((a, b) => a.name.localeCompare(b.name));
  return page(call.context, call.request, sorted, (p) => pageJson(call.tenant, site, p, canvas));
}

function getPage(call: GraphCall, site: SimSite, p: SimPage): SimResponse {
  const canvas = expandsCanvas(call.request);
  if (isAnswer(canvas)) return canvas;
  return { status: 200, json: pageJson(call.tenant, site, p, canvas) };
}

export const pageRoutes: GraphRoute[] = [
  ...route('GET', ['sites/:site/pages', 'sites/:site/pages/microsoft.graph.sitePage'], listPages),
  ...route('POST', 'sites/:site/pages', (call) => {
    const site = siteOf(call);
    return isAnswer(site) ? site : createPage(call, site);
  }),
  ...onPage('GET', ['sites/:site/pages/:page', 'sites/:site/pages/:page/microsoft.graph.sitePage'], getPage),
  ...onPage('GET', 'sites/:site/pages/:page/microsoft.graph.sitePage/canvasLayout', (_call, _site, p) => ({
    status: 200,
    json: canvasJson(p),
  })),
  ...onPage('GET', 'sites/:site/pages/:page/microsoft.graph.sitePage/webParts', ({ context, request }, _site, p) =>
    page(
      context,
      request,
      p.sections.flatMap((s) => s.columns.flatMap((c) => c.webparts)),
      webPartJson,
    ),
  ),
  ...onPage('POST', 'sites/:site/pages/:page/microsoft.graph.sitePage/publish', publish),
];
