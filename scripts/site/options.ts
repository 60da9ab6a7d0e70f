/**
 * The reference site's TypeDoc options: every entry point of package.json `exports`, the README
 * as the home page, the guides of docs/, generated/README.md and CHANGELOG.md as pages, and
 * every warning an error (an undocumented export, a link or reference that does not resolve, a
 * referenced type left out).
 */
import { join } from 'node:path';
import type { TypeDocOptions } from 'typedoc';
import type { EntryPoint } from '../entry-points.ts';
import { headingCodeInSlugs, type MarkdownParser } from './heading-slugs.ts';

/**
 * Types the public signatures use that no entry point exports. The API report lists them too
 * (as forgotten exports); exporting them is a change of the public API of its own. The site shows
 * their names where they are used.
 */
const NOT_EXPORTED = [
  'src/sdk.ts:NoParams',
  'src/sdk.ts:PageQuery',
  'src/sdk.ts:PageItem',
  'src/sdk.ts:QueryScalar',
  'src/cdn/url.ts:CdnSegment',
  'src/telemetry/telemetry.ts:TelemetryOption',
  'src/dialects/index.ts:DIALECTS',
  'src/dialects/v6/classify.ts:RouteDefinition',
  'src/http/types.ts:ClientListener',
  'src/redis/redis-client.ts:RedisClient',
  'src/cloudflare/protocol.ts:WireAdmission',
  'src/cloudflare/protocol.ts:LimitsCall',
  'src/testing/messages.ts:Answer',
  'src/testing/catalog-match.ts:PathIds',
  // openapi-typescript's output (generated/spec-types.ts): the document's schemas, reached
  // through the aliases named after each operation, which are exported and documented.
  'generated/spec-types.ts:components',
  'generated/spec-types.ts:WithoutNull',
];

/** The options for a site of `entries` built from `root` into `out`. */
export function siteOptions(root: string, entries: readonly EntryPoint[], out: string): Partial<TypeDocOptions> {
  return {
    name: 'tollgate',
    includeVersion: true,
    entryPoints: entries.map((entry) => entry.source),
    entryPointStrategy: 'resolve',
    tsconfig: join(root, 'tsconfig.build.json'),
    readme: join(root, 'README.md'),
    projectDocuments: [
      join(root, 'CHANGELOG.md'),
      join(root, 'docs', '*.md'),
      join(root, 'docs', 'spec', '*.md'),
      join(root, 'generated', 'README.md'),
    ],
    out,
    cleanOutputDir: true,
    // `@internal` marks what only tollgate calls (the resource classes' constructors, createResources).
    excludeInternal: true,
    // The repository is the package's (package.json `repository`); the clone CI builds in may have no remote.
    sourceLinkTemplate: 'https://github.com/tollgate-dev/tollgate/blob/{gitRevision}/{path}#L{line}',
    // The guides show a bot's setup in the languages docs/proxy.md covers.
    highlightLanguages: [
      'bash',
      'sh',
      'console',
      'json',
      'jsonc',
      'typescript',
      'ts',
      'javascript',
      'js',
      'toml',
      'yaml',
      'python',
      'java',
      'rust',
      'text',
    ],
    markdownItLoader: (parser: MarkdownParser) => headingCodeInSlugs(parser),
    navigation: { includeGroups: true },
    // TypeDoc's hierarchy page leaves out an interface that extends a type alias (ClientOptions
    // extends DialectOptions), while that interface's "View Summary" links to it there: a dead
    // anchor the browser test finds. Each page shows its own hierarchy.
    includeHierarchySummary: false,
    // Functions and classes first, then the resources (`client.channels`: scripts/site/resources.ts), then the types.
    groupOrder: ['Documents', 'Functions', 'Classes', '*', 'Interfaces', 'Type Aliases', 'Variables'],
    treatWarningsAsErrors: true,
    validation: {
      notExported: true,
      invalidLink: true,
      invalidPath: true,
      rewrittenLink: true,
      notDocumented: true,
      unusedMergeModuleWith: true,
    },
    // Every export and everything callable on it. Properties are left out: most are the
    // document's and discord-api-types' fields, and the data of generated/routes.ts.
    requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias', 'Method', 'Accessor'],
    intentionallyNotExported: NOT_EXPORTED,
    logLevel: 'Warn',
  };
}
