/**
 * A site's pages as Graph v1.0 serves them: the Site Pages library's pages (each a sitePage, sorted by
 * name), one page with `$expand=canvasLayout` (sections, columns, text and standard web parts), its
 * canvas and web parts, a page created with its canvas and published, and pages edited between reads;
 * Microsoft's documented examples as fixtures, and the parts of them Graph's metadata does not declare.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_APPLICATION_PERMISSIONS,
  evolve,
  type RunningSimulator,
  type SimPage,
  type SimTenant,
  startSimulator,
} from '../src/index.js';
import { checkGraphAnswer } from '../src/metadata/check.js';
import { graphOver } from './graph-walk.js';
import { accessToken, TENANT } from './helpers.js';

type Row = Record<string, unknown> & { id: string };
const e = encodeURIComponent;
const json = { 'content-type': 'application/json' };
const siteOf = (tenant: SimTenant) => tenant.sites[0] ?? expect.unreachable('a site');

/** learn.microsoft.com, Create a page in the site pages list of a site: the request's body. */
const DOCUMENTED_CREATE = {
  '@odata.type': '#microsoft.graph.sitePage',
  name: 'test.aspx',
  title: 'test',
  pageLayout: 'article',
  showComments: true,
  showRecommendedPages: false,
  titleArea: {
    enableGradientEffect: true,
    imageWebUrl:
      'https://cdn.hubblecontent.osi.office.net/m365content/publish/005292d6-9dcc-4fc5-b50b-b2d0383a411b/image.jpg',
    layout: 'colorBlock',
    showAuthor: true,
    showPublishedDate: false,
    showTextBlockAboveTitle: false,
    textAboveTitle: 'TEXT ABOVE TITLE',
    textAlignment: 'left',
    imageSourceType: 2,
    title: 'sample1',
  },
  canvasLayout: {
    horizontalSections: [
      {
        layout: 'oneThirdRightColumn',
        id: '1',
        emphasis: 'none',
        columns: [
          {
            id: '1',
            width: 8,
            webparts: [{ id: '6f9230af-2a98-4952-b205-9ede4f9ef548', innerHtml: '<p><b>Hello!</b></p>' }],
          },
          {
            id: '2',
            width: 4,
            webparts: [
              {
                id: '73d07dde-3474-4545-badb-f28ba239e0e1',
                webPartType: 'd1d91016-032f-456d-98a4-721247c305e8',
                data: {
                  dataVersion: '1.9',
                  description: 'Show an image on your page',
                  title: 'Image',
                  properties: {
                    imageSourceType: 2,
                    altText: '',
                    overlayText: '',
                    siteid: '0264cabe-6b92-450a-b162-b0c3d54fe5e8',
                    webid: 'f3989670-cd37-4514-8ccb-0f7c2cbe5314',
                    listid: 'bdb41041-eb06-474e-ac29-87093386bb14',
                    uniqueid: 'd9f94b40-78ba-48d0-a39f-3cb23c2fe7eb',
                    imgWidth: 4288,
                    imgHeight: 2848,
                    fixAspectRatio: false,
                    captionText: '',
                    alignment: 'Center',
                  },
                  serverProcessedContent: {
                    imageSources: [{ key: 'imageSource', value: '/_LAYOUTS/IMAGES/VISUALTEMPLATEIMAGE1.JPG' }],
                    customMetadata: [{ key: 'imageSource', value: { siteid: '0264cabe-6b92-450a-b162-b0c3d54fe5e8' } }],
                  },
                },
              },
            ],
          },
        ],
      },
    ],
  },
};

/** The same page's documented answer (201), its properties as Microsoft lists them. */
const DOCUMENTED_CREATED_KEYS = [
  '@odata.type',
  'id',
  'name',
  'webUrl',
  'title',
  'pageLayout',
  'showComments',
  'showRecommendedPages',
  'createdBy',
  'lastModifiedBy',
  'publishingState',
  'titleArea',
];

describe("a site's pages", () => {
  const graph = graphOver({ users: 3, sites: 1, teams: 0, pagesPerSite: 3 }, 2);
  const { tenant, get, all, call } = graph;
  const site = `/sites/${e(siteOf(tenant).id)}`;
  const pages = () => siteOf(tenant).pages;
  const home = () => pages()[0] ?? expect.unreachable('a home page');

  it('lists every page as a sitePage, sorted by name, by /pages and by its cast to sitePage', async () => {
    const listed = await all<Row>(`${site}/pages`);
    const expected = [...pages()].sort((a, b) => a.name.localeCompare(b.name));
    expect(listed.map((p) => p.name)).toEqual(expected.map((p) => p.name));
    for (const page of listed) expect(page['@odata.type']).toBe('#microsoft.graph.sitePage');
    expect((await all<Row>(`${site}/pages/microsoft.graph.sitePage`)).map((p) => p.id)).toEqual(
      listed.map((p) => p.id),
    );
    const byId = new Map(pages().map((p) => [p.id, p]));
    for (const page of listed) {
      const source = byId.get(page.id) ?? expect.unreachable('a page');
      expect(page).toMatchObject({
        title: source.title,
        pageLayout: source.pageLayout,
        publishingState: { level: source.level, versionId: source.versionId },
        webUrl: `${siteOf(tenant).webUrl}/SitePages/${source.name}`,
      });
      expect(page).not.toHaveProperty('canvasLayout');
    }
    expect(listed.find((p) => p.name === 'Home.aspx')).toMatchObject({
      pageLayout: 'home',
      title: siteOf(tenant).name,
    });
    expect(listed.some((p) => (p.publishingState as Row).level === 'draft')).toBe(true);
  });

  it("leaves out what Microsoft's documented list of pages shows beyond the metadata: sitePage's contentType, titleArea's extras", async () => {
    // learn.microsoft.com, List baseSitePages: the second page of the documented answer.
    const documented = {
      '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#sites('x')/pages",
      value: [
        {
          '@odata.type': '#microsoft.graph.sitePage',
          '@odata.etag': '"{DA0F67BE-977E-4D09-88AC-506A1002E678},5"',
          eTag: '"{DA0F67BE-977E-4D09-88AC-506A1002E678},5"',
          id: 'da0f67be-977e-4d09-88ac-506a1002e678',
          lastModifiedDateTime: '2023-04-16T06:39:30Z',
          name: 'Analyst Fresh.aspx',
          webUrl: 'https://contoso.sharepoint.com/SitePages/Analyst Fresh.aspx',
          title: 'Lesotho Account Metal Analyst du',
          pageLayout: 'article',
          promotionKind: 'page',
          showComments: false,
          showRecommendedPages: false,
          contentType: { id: '0x0101009D1CB255DA76424F860D91F20E6C4118', name: 'Site Page' },
          createdBy: { user: { displayName: 'admin_contoso' } },
          lastModifiedBy: { user: { displayName: 'admin_contoso' } },
          parentReference: { siteId: '45bb2a3b-0a4e-46f4-8c68-749c3fea75d3' },
          publishingState: { level: 'draft', versionId: '0.1' },
          reactions: {},
          titleArea: {
            enableGradientEffect: false,
            imageWebUrl: 'https://loremflickr.com/640/480',
            layout: 'plain',
            showAuthor: false,
            showPublishedDate: false,
            showTextBlockAboveTitle: false,
            textAboveTitle: 'generating ADP',
            textAlignment: 'center',
            title: 'strategic underneath protocol Buckinghamshire forecast',
            imageSourceType: 4,
          },
        },
      ],
    };
    const found = checkGraphAnswer({ method: 'GET', path: '/sites/x/pages', status: 200, json: documented });
    expect(found.mismatches.map((m) => m.pointer)).toEqual([
      '/value/0/contentType',
      '/value/0/titleArea/title',
      '/value/0/titleArea/imageSourceType',
    ]);
    const [page] = (await get(`${site}/pages`)).body.value as Row[];
    const [example] = documented.value;
    const declared = Object.keys(example ?? {}).filter((k) => k !== 'contentType');
    expect(Object.keys(page ?? {})).toEqual(expect.arrayContaining(declared));
  });

  it('answers a page with its canvas: sections, columns and web parts as the model holds them', async () => {
    const source = home();
    for (const path of [
      `${site}/pages/${source.id}?$expand=canvasLayout`,
      `${site}/pages/${source.id}/microsoft.graph.sitePage?$expand=canvasLayout`,
    ]) {
      const answer = await get(path);
      expect(answer.status).toBe(200);
      const canvas = answer.body.canvasLayout as { horizontalSections: Row[] };
      expect(
        canvas.horizontalSections.map((s) => [s.layout, s.emphasis, (s.columns as Row[]).map((c) => c.width)]),
      ).toEqual(source.sections.map((s) => [s.layout, s.emphasis, s.columns.map((c) => c.width)]));
      const parts = canvas.horizontalSections.flatMap((s) => (s.columns as Row[]).flatMap((c) => c.webparts as Row[]));
      const stored = source.sections.flatMap((s) => s.columns.flatMap((c) => c.webparts));
      expect(parts.map((p) => p.id)).toEqual(stored.map((p) => p.id));
      expect(parts.filter((p) => p['@odata.type'] === '#microsoft.graph.textWebPart').map((p) => p.innerHtml)).toEqual(
        stored.flatMap((p) => (p.kind === 'text' ? [p.innerHtml] : [])),
      );
      expect(parts.find((p) => p['@odata.type'] === '#microsoft.graph.standardWebPart')).toMatchObject({
        webPartType: '0f087d7f-520e-42b7-89c0-496aaf979d58',
        data: {
          title: 'Button',
          serverProcessedContent: { links: [{ key: 'linkUrl', value: siteOf(tenant).webUrl }] },
        },
      });
    }
    const canvas = await get(`${site}/pages/${source.id}/microsoft.graph.sitePage/canvasLayout`);
    expect((canvas.body.horizontalSections as Row[]).length).toBe(source.sections.length);
    const webParts = await all<Row>(`${site}/pages/${source.id}/microsoft.graph.sitePage/webParts`);
    expect(webParts).toHaveLength(3);
    expect((await get(`${site}/pages/${source.id}?$expand=comments`)).status).toBe(400);
    expect((await get(`${site}/pages/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it("names web parts by Graph's types, where Microsoft's documented example of Get page names oneDrive's", () => {
    // learn.microsoft.com, Get sitePage, example 3: a text web part of the documented canvas.
    const documented = {
      '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#sites('x')/pages/$entity",
      id: 'f45354cb-d634-45df-8b88-2b4e96a1dc45',
      canvasLayout: {
        horizontalSections: [
          {
            layout: 'threeColumns',
            id: '1',
            emphasis: 'neutral',
            columns: [
              {
                id: '1',
                width: 4,
                webparts: [
                  {
                    '@odata.type': '#oneDrive.textWebPart',
                    id: 'f6d0ef70-c977-45e4-ae4b-4676a30d5aab',
                    innerHtml: '<h1>sample content</h1>',
                  },
                ],
              },
            ],
          },
        ],
      },
    };
    const path = '/sites/x/pages/p/microsoft.graph.sitePage';
    const found = checkGraphAnswer({ method: 'GET', path, status: 200, json: documented }).mismatches;
    // Not a type of the model: the web part is read as the abstract webPart, which has no innerHtml.
    const part = '/canvasLayout/horizontalSections/0/columns/0/webparts/0';
    expect(found.map((m) => m.pointer)).toEqual([`${part}/@odata.type`, `${part}/innerHtml`]);
    const named = JSON.parse(
      JSON.stringify(documented).replace('#oneDrive.textWebPart', '#microsoft.graph.textWebPart'),
    );
    expect(checkGraphAnswer({ method: 'GET', path, status: 200, json: named }).mismatches).toEqual([]);
  });

  it("creates the documented example's page, checked out to its author, and publishes it", async () => {
    const imagePart = DOCUMENTED_CREATE.canvasLayout.horizontalSections[0]?.columns[1]?.webparts[0];
    const imageData = imagePart && 'data' in imagePart ? imagePart.data : expect.unreachable('an image web part');
    const created = await call('POST', `${site}/pages`, { body: JSON.stringify(DOCUMENTED_CREATE), headers: json });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(expect.arrayContaining(DOCUMENTED_CREATED_KEYS));
    expect(created.body).toMatchObject({
      '@odata.type': '#microsoft.graph.sitePage',
      name: 'test.aspx',
      title: 'test',
      pageLayout: 'article',
      showComments: true,
      showRecommendedPages: false,
      publishingState: {
        level: 'checkout',
        versionId: '0.1',
        checkedOutBy: { user: { displayName: 'SharePoint App' } },
      },
    });
    // titleArea keeps what its type declares; imageSourceType and title are not in v1.0's metadata.
    const { imageSourceType: _source, title: _title, ...declared } = DOCUMENTED_CREATE.titleArea;
    expect(created.body.titleArea).toEqual(declared);
    const path = `${site}/pages/${created.body.id}/microsoft.graph.sitePage`;
    const read = (await get(`${path}?$expand=canvasLayout`)).body;
    const [section] = (read.canvasLayout as { horizontalSections: Row[] }).horizontalSections;
    expect(section).toMatchObject({ layout: 'oneThirdRightColumn', emphasis: 'none' });
    const [text, image] = ((section?.columns ?? []) as Row[]).map((c) => (c.webparts as Row[])[0]);
    expect(text).toEqual({
      '@odata.type': '#microsoft.graph.textWebPart',
      id: '6f9230af-2a98-4952-b205-9ede4f9ef548',
      innerHtml: '<p><b>Hello!</b></p>',
    });
    expect(image).toMatchObject({
      '@odata.type': '#microsoft.graph.standardWebPart',
      webPartType: 'd1d91016-032f-456d-98a4-721247c305e8',
      data: {
        title: 'Image',
        properties: imageData.properties,
      },
    });
    expect(((image?.data ?? {}) as Row).serverProcessedContent).toEqual({
      imageSources: [{ key: 'imageSource', value: '/_LAYOUTS/IMAGES/VISUALTEMPLATEIMAGE1.JPG' }],
    });
    const published = await call('POST', `${path}/publish`);
    expect(published.status).toBe(204);
    expect(published.json).toBeUndefined();
    expect((await get(path)).body.publishingState).toEqual({ level: 'published', versionId: '1.0' });
  });

  it('refuses a page without its type, a name taken or without .aspx, and a web part Graph does not write', async () => {
    const body = (more: Record<string, unknown>) =>
      JSON.stringify({ '@odata.type': '#microsoft.graph.sitePage', name: 'other.aspx', ...more });
    const refusals: [string, number][] = [
      [JSON.stringify({ name: 'untyped.aspx' }), 400],
      [body({ name: 'Home.aspx' }), 409],
      [body({ name: 'no-extension' }), 400],
      [body({ pageLayout: 'spaceship' }), 400],
      [body({ canvasLayout: { horizontalSections: [{ layout: 'fiveColumns' }] } }), 400],
      [
        body({
          canvasLayout: {
            horizontalSections: [
              { columns: [{ webparts: [{ webPartType: '00000000-0000-0000-0000-000000000000' }] }] },
            ],
          },
        }),
        400,
      ],
    ];
    for (const [text, status] of refusals) {
      const answer = await call('POST', `${site}/pages`, { body: text, headers: json });
      expect(answer.status, text).toBe(status);
    }
    expect(pages().filter((p) => p.name === 'other.aspx')).toEqual([]);
  });

  it('edits pages between reads: new text, a new published version, a new eTag', async () => {
    const before = new Map(pages().map((p) => [p.id, JSON.stringify(p)]));
    const etags = new Map(((await get(`${site}/pages`)).body.value as Row[]).map((p) => [p.id, p.eTag]));
    const change = evolve(tenant, { editedPages: 1, at: '2026-12-02T09:00:00.000Z' });
    const edited = pages().filter((p) => p.changed === change);
    expect(edited).toHaveLength(1);
    const page = edited[0] as SimPage;
    expect(JSON.stringify(page)).not.toBe(before.get(page.id));
    const read = (await get(`${site}/pages/${page.id}?$expand=canvasLayout`)).body;
    expect(read.lastModifiedDateTime).toBe('2026-12-02T09:00:00.000Z');
    expect(read.eTag).not.toBe(etags.get(page.id));
    expect((read.publishingState as Row).level).toBe('published');
  });

  it('matched Graph v1.0’s metadata in every answer', () => {
    expect(graph.validation?.mismatches).toEqual([]);
  });
});

describe('pages over HTTP: permissions', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, size: { users: 2, sites: 1, teams: 0 } }],
      validate: true,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const site = () => `/sites/${e(siteOf(sim.state.tenant(TENANT)).id)}`;
  const tokenWith = async (roles: readonly string[]) => {
    sim.state.setConsent(TENANT, roles);
    const token = await accessToken(sim);
    sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
    return token;
  };
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${sim.graphBaseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...json } });

  it('reads pages with Sites.Read.All, creates them with Sites.ReadWrite.All, publishes with Files.ReadWrite.All too', async () => {
    const read = await tokenWith(['Sites.Read.All']);
    expect((await call(read, `${site()}/pages`)).status).toBe(200);
    const create = {
      method: 'POST',
      body: JSON.stringify({ '@odata.type': '#microsoft.graph.sitePage', name: 'Perm.aspx' }),
    };
    expect((await call(read, `${site()}/pages`, create)).status).toBe(403);
    expect((await call(await tokenWith(['Files.Read.All']), `${site()}/pages`)).status).toBe(403);
    const created = await call(await tokenWith(['Sites.ReadWrite.All']), `${site()}/pages`, create);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const publish = `${site()}/pages/${id}/microsoft.graph.sitePage/publish`;
    expect((await call(read, publish, { method: 'POST' })).status).toBe(403);
    expect((await call(await tokenWith(['Files.ReadWrite.All']), publish, { method: 'POST' })).status).toBe(204);
    expect(sim.state.validation?.mismatches).toEqual([]);
  });
});
