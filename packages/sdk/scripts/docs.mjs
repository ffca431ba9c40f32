// The SDK's API reference: TypeDoc over the public entry points (., ./testing, ./openapi) into
// docs/api. Every exported symbol must carry TSDoc: an undocumented export (or a broken {@link})
// fails the run. Prints how many exported symbols are documented.
//
// TypeDoc reads sources through the TypeScript compiler API, which TypeScript 7's native compiler
// does not offer; TypeDoc's `import 'typescript'` is pointed at TypeScript 6 (the typescript-6
// alias) for this run only.
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const typescript6 = pathToFileURL(require.resolve('typescript-6')).href;
const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'typescript') return { url: ${JSON.stringify(typescript6)}, format: 'commonjs', shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const { Application, ReflectionKind } = await import('typedoc');

const out = join(dir, 'docs', 'api');
const app = await Application.bootstrapWithPlugins({
  entryPoints: ['src/index.ts', 'src/testing/index.ts', 'src/openapi.ts'].map((file) => join(dir, file)),
  tsconfig: join(dir, 'tsconfig.build.json'),
  out,
  name: '@compliance-portal/sdk',
  readme: join(dir, 'README.md'),
  excludePrivate: true,
  excludeInternal: true,
  // notExported off: the helper types that public types are built from (Simplify, ParamsArgs...) are
  // shown inline; exporting them would widen the API for nothing.
  validation: { notExported: false, invalidLink: true, notDocumented: true },
  disableSources: true,
  // Every exported declaration; the members of schemas' inferred types are described by the schemas.
  requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias'],
  treatValidationWarningsAsErrors: true,
  logLevel: 'Warn',
});
const project = await app.convert();
if (!project) {
  console.error('TypeDoc could not convert the SDK');
  process.exit(1);
}
app.validate(project);

// The figure: exported symbols of the entry points (modules' direct children) that carry a comment.
const exported = project
  .getReflectionsByKind(ReflectionKind.SomeExport)
  .filter((r) => r.parent?.kindOf(ReflectionKind.SomeModule | ReflectionKind.Project));
const documented = exported.filter((r) => {
  const signatures = r.signatures ?? r.type?.declaration?.signatures ?? [];
  return r.hasComment() || signatures.some((s) => s.hasComment());
});
console.log(`TypeDoc: ${documented.length} of ${exported.length} exported symbols documented`);
if (app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error('TypeDoc: undocumented exports or broken links (above)');
  process.exit(1);
}
await app.generateDocs(project, out);
console.log(`API reference written to ${out}`);
