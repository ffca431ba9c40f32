/** The modules' route tables merge into one; an endpoint implemented twice stops the server from starting. */
import { describe, expect, it } from 'vitest';
import { mergeRouteTables, type RouteTable } from '../src/http/contract.js';

const handler = async () => undefined as never;

describe('the route table', () => {
  it('merges the modules’ tables', () => {
    const merged = mergeRouteTables([
      { 'apollo.audit.list': { handler } } as RouteTable,
      { 'apollo.tenants.list': { handler } } as RouteTable,
    ]);
    expect(Object.keys(merged).sort()).toEqual(['apollo.audit.list', 'apollo.tenants.list']);
  });

  it('refuses an endpoint two modules implement, naming it', () => {
    expect(() =>
      mergeRouteTables([
        { 'apollo.audit.list': { handler } } as RouteTable,
        { 'apollo.audit.list': { handler } } as RouteTable,
      ]),
    ).toThrow('two modules implement the endpoint apollo.audit.list');
  });
});
