/**
 * The metadata reader and checker: the reader must read all of Microsoft's CSDL, and the checker must
 * see what is wrong in an answer (a referee that passes everything proves nothing).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAPH_METADATA_PATH, GraphSchema, graphMetadata } from '../src/metadata/check.js';

describe('the metadata reader', () => {
  it('reads every type, property, enum, entity set and bound operation of the published CSDL', () => {
    const model = graphMetadata();
    const xml = readFileSync(GRAPH_METADATA_PATH, 'utf8');
    const count = (tag: string) => xml.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length ?? 0;
    let properties = 0;
    for (const t of model.types.values()) properties += t.properties.size;
    expect(model.types.size).toBe(count('EntityType') + count('ComplexType'));
    expect(properties).toBe(count('Property') + count('NavigationProperty'));
    expect(model.enums.size).toBe(count('EnumType'));
    expect(model.entitySets.size + model.singletons.size).toBe(count('EntitySet') + count('Singleton'));
    // Aliases resolved: `graph.baseItem` is microsoft.graph.baseItem.
    expect(model.types.get('microsoft.graph.driveItem')?.baseType).toBe('microsoft.graph.baseItem');
    expect(model.types.get('microsoft.graph.user')?.properties.get('userPrincipalName')?.type).toEqual({
      name: 'Edm.String',
      collection: false,
    });
    expect(model.boundOperations.get('delta')?.some((o) => o.binding?.name === 'microsoft.graph.driveItem')).toBe(true);
  });
});

describe('the checker', () => {
  const schema = new GraphSchema();
  const check = (path: string, json: unknown, method = 'GET', status = 200) =>
    schema.check({ method, path, status, json });
  const context = { '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users' };

  it('resolves entity sets, keys, navigation, casts, bound functions, media and path addressing', () => {
    expect(schema.resolve('/users')).toMatchObject({
      kind: 'entity',
      type: { name: 'microsoft.graph.user', collection: true },
    });
    expect(schema.resolve('/users/abc/drive/root/children')).toMatchObject({
      type: { name: 'microsoft.graph.driveItem', collection: true },
    });
    expect(schema.resolve('/groups/g/members/microsoft.graph.user')).toMatchObject({
      type: { name: 'microsoft.graph.user', collection: true },
    });
    expect(schema.resolve('/drives/d/root/delta')).toMatchObject({
      type: { name: 'microsoft.graph.driveItem', collection: true },
    });
    expect(schema.resolve('/users/u/mailFolders/inbox/messages/delta()')).toMatchObject({
      type: { name: 'microsoft.graph.message', collection: true },
    });
    expect(schema.resolve('/users/u/messages/m/$value')).toMatchObject({ kind: 'stream' });
    expect(schema.resolve('/drives/d/items/i/versions/1.0/content')).toMatchObject({ kind: 'stream' });
    expect(schema.resolve('/drives/d/root:/a/b.txt')).toMatchObject({
      type: { name: 'microsoft.graph.driveItem', collection: false },
    });
    expect(schema.resolve('/drives/d/items/p:/b.txt:/createUploadSession')).toMatchObject({
      type: { name: 'microsoft.graph.uploadSession' },
    });
    expect(schema.resolve('/users/$count')).toEqual({ kind: 'count' });
    expect(schema.resolve('/nothing')).toMatchObject({ kind: 'error' });
    expect(schema.resolve('/users/u/noSuchThing')).toMatchObject({ kind: 'error' });
    expect(schema.resolve('/groups/g/members/microsoft.graph.driveItem')).toMatchObject({ kind: 'error' });
  });

  it('finds unknown properties, wrong types, nulls, enum values and derived types that do not derive', () => {
    const found = check('/users', {
      ...context,
      value: [
        {
          id: 'a',
          displayName: 3,
          userPrincipalName: null,
          nickname: 'x',
          businessPhones: 'no',
          accountEnabled: 'yes',
        },
        { '@odata.type': '#microsoft.graph.driveItem', id: 'b' },
      ],
    }).mismatches.map((m) => `${m.pointer} ${m.reason}`);
    expect(found).toEqual([
      '/value/0/displayName 3 is not an Edm.String',
      "/value/0/nickname 'nickname' is not a property of microsoft.graph.user (an open type: a dynamic property)",
      '/value/0/businessPhones expected an array (Collection(Edm.String))',
      '/value/0/accountEnabled "yes" is not an Edm.Boolean',
      '/value/1/@odata.type microsoft.graph.driveItem does not derive from microsoft.graph.user',
    ]);
    const item = check('/drives/d/items/i', {
      ...context,
      id: 'i',
      size: '12',
      createdDateTime: 'yesterday',
      file: { mimeType: 'text/plain', hashes: { quickXorHash: 1 } },
      deleted: { state: 'gone' },
      '@microsoft.graph.downloadUrl': 'not a url',
      '@custom.annotation': 1,
    }).mismatches.map((m) => m.pointer);
    expect(item).toEqual([
      '/size',
      '/createdDateTime',
      '/file/hashes/quickXorHash',
      '/@microsoft.graph.downloadUrl',
      '/@custom.annotation',
    ]);
    expect(check('/chats/c/members', { ...context, value: [{ id: 'm', roles: [null] }] }).mismatches).toEqual([]);
    expect(check('/teams/t/channels/c', { ...context, id: 'c', membershipType: 'everyone' }).mismatches).toEqual([
      { pointer: '/membershipType', reason: '"everyone" is not a member of microsoft.graph.channelMembershipType' },
    ]);
  });

  it("takes a list item's columns as the dynamic properties of its fieldValueSet, and no other open type's", () => {
    const item = {
      ...context,
      id: '1',
      createdDateTime: '2026-09-01T08:00:00Z',
      lastModifiedDateTime: '2026-09-01T08:00:00Z',
      fields: {
        '@odata.etag': '"a,1"',
        id: '1',
        Title: 'Widget',
        Quantity: 503,
        Done: false,
        OwnerLookupId: '10',
        'Tags@odata.type': 'Collection(Edm.String)',
        Tags: ['a', 'b'],
        'Missing@odata.type': 'Edm.String',
      },
    };
    expect(check('/sites/s/lists/l/items/1', item).mismatches).toEqual([
      {
        pointer: '/fields/Missing@odata.type',
        reason: "annotation of 'Missing', which is not a property of microsoft.graph.fieldValueSet",
      },
    ]);
    expect(
      check('/sites/s/lists/l/items/1/fields', { ...context, Color: 'Fuchsia', Quantity: 934 }).mismatches,
    ).toEqual([]);
    // sitePage is open too, but declares its properties: one it does not declare is a mismatch.
    const pageAnswer = check('/sites/s/pages/p/microsoft.graph.sitePage', { ...context, id: 'p', contentType: {} });
    expect(pageAnswer.mismatches.map((m) => m.pointer)).toEqual(['/contentType']);
  });

  it('wants @odata.context on a JSON answer, and Graph’s error body with request ids on an error', () => {
    expect(check('/users/u', { id: 'u' }).mismatches).toEqual([
      { pointer: '/@odata.context', reason: 'missing @odata.context' },
    ]);
    expect(
      check(
        '/users/u',
        { error: { code: 'x', message: 'y', innerError: { date: 'yesterday' } } },
        'GET',
        404,
      ).mismatches.map((m) => m.pointer),
    ).toEqual(['/error/innerError/date', '/error/innerError/request-id', '/error/innerError/client-request-id']);
  });
});
