/**
 * A reader for OData CSDL (the XML of Microsoft Graph's $metadata): the types, enums, entity
 * container and bound operations, with every type name written in full (`microsoft.graph.user`, the
 * schemas' aliases such as `graph.` resolved). CSDL is plain generated XML (elements and
 * double-quoted attributes; text content and annotations are not needed), so a small tokenizer reads
 * the 3.5 MB document in a fraction of a second without a dependency.
 */

/** A type reference: `Edm.String`, `microsoft.graph.user`, or a collection of one of them. */
export interface TypeRef {
  name: string;
  collection: boolean;
}

export interface PropertyDef {
  name: string;
  type: TypeRef;
  /** CSDL's default is nullable; for a collection it says whether its elements may be null. */
  nullable: boolean;
  navigation: boolean;
  containsTarget: boolean;
}

export interface StructuredTypeDef {
  kind: 'entity' | 'complex';
  name: string;
  baseType?: string;
  abstract: boolean;
  openType: boolean;
  hasStream: boolean;
  properties: Map<string, PropertyDef>;
}

interface EnumTypeDef {
  kind: 'enum';
  name: string;
  isFlags: boolean;
  members: Set<string>;
}

export interface OperationDef {
  kind: 'function' | 'action';
  name: string;
  /** The binding parameter's type (bound operations only). */
  binding?: TypeRef;
  returnType?: TypeRef;
}

export interface CsdlModel {
  types: Map<string, StructuredTypeDef>;
  enums: Map<string, EnumTypeDef>;
  entitySets: Map<string, string>;
  singletons: Map<string, string>;
  /** Bound operations by their name (several overloads share one). */
  boundOperations: Map<string, OperationDef[]>;
  /** Schema namespaces, e.g. microsoft.graph, microsoft.graph.security. */
  namespaces: Set<string>;
}

interface Element {
  name: string;
  attributes: Record<string, string>;
  selfClosing: boolean;
  closing: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? whole;
  });

/** The document's elements in order: start tags (self-closing or not) and end tags. */
function* xmlElements(xml: string): Generator<Element> {
  const tag = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<(\/?)([A-Za-z_][\w.:-]*)([^>]*?)(\/?)>/g;
  const attribute = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (const match of xml.matchAll(tag)) {
    const [, slash, name, rest, selfClose] = match;
    if (!name) continue;
    const attributes: Record<string, string> = {};
    for (const a of (rest ?? '').matchAll(attribute)) attributes[a[1] ?? ''] = decode(a[2] ?? a[3] ?? '');
    yield { name, attributes, selfClosing: selfClose === '/', closing: slash === '/' };
  }
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** Reads a CSDL document. */
export function readCsdl(xml: string): CsdlModel {
  const model: CsdlModel = {
    types: new Map(),
    enums: new Map(),
    entitySets: new Map(),
    singletons: new Map(),
    boundOperations: new Map(),
    namespaces: new Set(),
  };
  // Aliases are resolved once every schema is known: names are kept raw until then.
  const aliases = new Map<string, string>();
  const raw: { refs: TypeRef[]; names: { ref: { baseType?: string } }[] } = { refs: [], names: [] };
  const stack: string[] = [];
  let namespace = '';
  let structured: StructuredTypeDef | undefined;
  let enumType: EnumTypeDef | undefined;
  let operation: (OperationDef & { bound: boolean; parameters: number }) | undefined;

  const typeRef = (text: string): TypeRef => {
    const collection = /^Collection\((.*)\)$/.exec(text);
    const ref = { name: collection?.[1] ?? text, collection: Boolean(collection) };
    raw.refs.push(ref);
    return ref;
  };

  for (const element of xmlElements(xml)) {
    const name = localName(element.name);
    if (element.closing) {
      stack.pop();
      if (name === 'EntityType' || name === 'ComplexType') structured = undefined;
      if (name === 'EnumType') enumType = undefined;
      if ((name === 'Function' || name === 'Action') && operation) {
        if (operation.bound && operation.binding) {
          const { bound: _bound, parameters: _parameters, ...def } = operation;
          const list = model.boundOperations.get(def.name) ?? [];
          list.push(def);
          model.boundOperations.set(def.name, list);
        }
        operation = undefined;
      }
      continue;
    }
    const parent = stack[stack.length - 1];
    const a = element.attributes;
    if (name === 'Schema') {
      namespace = a.Namespace ?? '';
      model.namespaces.add(namespace);
      if (a.Alias) aliases.set(a.Alias, namespace);
    } else if ((name === 'EntityType' || name === 'ComplexType') && parent === 'Schema') {
      structured = {
        kind: name === 'EntityType' ? 'entity' : 'complex',
        name: `${namespace}.${a.Name}`,
        ...(a.BaseType ? { baseType: a.BaseType } : {}),
        abstract: a.Abstract === 'true',
        openType: a.OpenType === 'true',
        hasStream: a.HasStream === 'true',
        properties: new Map(),
      };
      raw.names.push({ ref: structured });
      model.types.set(structured.name, structured);
    } else if ((name === 'Property' || name === 'NavigationProperty') && structured && parent !== 'Schema') {
      if (parent === 'EntityType' || parent === 'ComplexType') {
        structured.properties.set(a.Name ?? '', {
          name: a.Name ?? '',
          type: typeRef(a.Type ?? 'Edm.Untyped'),
          nullable: a.Nullable !== 'false',
          navigation: name === 'NavigationProperty',
          containsTarget: a.ContainsTarget === 'true',
        });
      }
    } else if (name === 'EnumType' && parent === 'Schema') {
      enumType = { kind: 'enum', name: `${namespace}.${a.Name}`, isFlags: a.IsFlags === 'true', members: new Set() };
      model.enums.set(enumType.name, enumType);
    } else if (name === 'Member' && enumType && parent === 'EnumType') {
      enumType.members.add(a.Name ?? '');
    } else if ((name === 'Function' || name === 'Action') && parent === 'Schema') {
      operation = {
        kind: name === 'Function' ? 'function' : 'action',
        name: a.Name ?? '',
        bound: a.IsBound === 'true',
        parameters: 0,
      };
    } else if (name === 'Parameter' && operation && (parent === 'Function' || parent === 'Action')) {
      if (operation.parameters === 0 && operation.bound) operation.binding = typeRef(a.Type ?? '');
      operation.parameters += 1;
    } else if (name === 'ReturnType' && operation) {
      operation.returnType = typeRef(a.Type ?? '');
    } else if (name === 'EntitySet' && parent === 'EntityContainer') {
      model.entitySets.set(a.Name ?? '', a.EntityType ?? '');
    } else if (name === 'Singleton' && parent === 'EntityContainer') {
      model.singletons.set(a.Name ?? '', a.Type ?? '');
    }
    if (!element.selfClosing) stack.push(name);
  }

  const full = (qualified: string) => {
    if (qualified.startsWith('Edm.')) return qualified;
    const dot = qualified.lastIndexOf('.');
    const prefix = qualified.slice(0, dot);
    const namespace = aliases.get(prefix);
    return namespace ? `${namespace}${qualified.slice(dot)}` : qualified;
  };
  for (const ref of raw.refs) ref.name = full(ref.name);
  for (const { ref } of raw.names) if (ref.baseType) ref.baseType = full(ref.baseType);
  for (const [key, value] of model.entitySets) model.entitySets.set(key, full(value));
  for (const [key, value] of model.singletons) model.singletons.set(key, full(value));
  return model;
}
