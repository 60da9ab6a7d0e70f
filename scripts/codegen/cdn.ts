/**
 * Writes `generated/cdn.ts` from the catalog's CDN section: the endpoint definitions
 * (`cdnEndpoints`), one extension union per endpoint (`UserAvatarExtension`), the `Cdn` interface
 * (one documented helper per endpoint) and `createCdnHelpers`, which `src/cdn/` wraps as `cdn` and
 * `createCdn`. Its README section and index exports come from here too. Catalog order throughout.
 */
import { StructureKind, VariableDeclarationKind, type SourceFile } from 'ts-morph';
import type { CdnCatalog, CdnCatalogEndpoint } from '../../catalog/cdn-schema.ts';
import { CDN_BASE_URL, cdnUrl, MEDIA_BASE_URL, type CdnEndpoint, type CdnSegment } from '../../src/cdn/url.ts';
import { camelCase } from '../../src/paths/path.ts';
import { capitalized } from '../words.ts';

const URL_IMPORT = '../src/cdn/url.ts';

const extensionType = (endpoint: CdnCatalogEndpoint) => `${capitalized(endpoint.name)}Extension`;

/** Sample arguments for the examples, by parameter kind and name. */
const EXAMPLE_IDS: Record<string, string> = {
  guild_id: '41771983423143937',
  user_id: '80351110224678912',
  emoji_id: '41771983429993937',
  role_id: '41771983423143936',
  application_id: '157730590492196864',
  sticker_id: '749054660769218631',
};

export function cdnDefinition(endpoint: CdnCatalogEndpoint, cdn: CdnCatalog): CdnEndpoint {
  const path: CdnSegment[] = endpoint.path
    .split('/')
    .slice(1)
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      return name === undefined ? segment : { name, kind: cdn.parameters[name]! };
    });
  return {
    name: endpoint.name,
    path,
    extensions: endpoint.extensions,
    animated: endpoint.animated ?? null,
    sized: endpoint.sizeIgnored !== true,
    mediaProxy: endpoint.mediaProxy ?? [],
  };
}

const parametersOf = (definition: CdnEndpoint) =>
  definition.path.filter((segment): segment is Exclude<CdnSegment, string> => typeof segment !== 'string');

function optionsTypeOf(endpoint: CdnCatalogEndpoint): string | undefined {
  if (endpoint.extensions.length === 0) return undefined;
  const generic = endpoint.sizeIgnored
    ? 'CdnFormatOptions'
    : endpoint.animated
      ? 'CdnAnimatedImageOptions'
      : 'CdnImageOptions';
  return `${generic}<${extensionType(endpoint)}>`;
}

const TYPE_OF_KIND = { snowflake: 'Snowflake', hash: 'string', index: 'DefaultAvatarIndex' } as const;

export function emitCdn(file: SourceFile, cdn: CdnCatalog): void {
  const definitions = cdn.endpoints.map((endpoint) => cdnDefinition(endpoint, cdn));
  const types = new Set(['CdnBases', 'CdnEndpoint']);
  for (const endpoint of cdn.endpoints) {
    const options = optionsTypeOf(endpoint);
    if (options) types.add(options.slice(0, options.indexOf('<')));
  }
  for (const definition of definitions) {
    for (const parameter of parametersOf(definition)) if (parameter.kind === 'index') types.add('DefaultAvatarIndex');
  }
  file.addImportDeclaration({ moduleSpecifier: '../src/sdk.ts', namedImports: ['Snowflake'], isTypeOnly: true });
  file.addImportDeclaration({ moduleSpecifier: URL_IMPORT, namedImports: [...types].sort(), isTypeOnly: true });
  file.addImportDeclaration({ moduleSpecifier: URL_IMPORT, namedImports: ['cdnUrl'] });

  const entries = definitions.map((definition) => `${definition.name}: ${JSON.stringify(definition)}`);
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ["Every CDN endpoint of the catalog, by its helper's name."],
    declarations: [
      {
        name: 'cdnEndpoints',
        initializer: `{\n${entries.join(',\n')}\n} as const satisfies Record<string, CdnEndpoint>`,
      },
    ],
  });
  for (const endpoint of cdn.endpoints) {
    if (endpoint.extensions.length === 0) continue;
    file.addTypeAlias({
      name: extensionType(endpoint),
      isExported: true,
      docs: [
        `The extensions \`cdn.${endpoint.name}\` serves (${endpoint.summary}); \`${endpoint.extensions[0]}\` by default.`,
      ],
      type: endpoint.extensions.map((extension) => `'${extension}'`).join(' | '),
    });
  }
  file.addInterface({
    name: 'Cdn',
    isExported: true,
    docs: [
      'The CDN URL helpers (`cdn`, `createCdn({ baseUrl })`): each builds the absolute URL of an image and sends nothing. Arguments are checked as path ids are: a malformed one throws TollgateArgumentError.',
    ],
    methods: cdn.endpoints.map((endpoint, index) => {
      const definition = definitions[index]!;
      const options = optionsTypeOf(endpoint);
      return {
        kind: StructureKind.MethodSignature,
        name: endpoint.name,
        docs: [helperDoc(endpoint, definition)],
        parameters: [
          ...parametersOf(definition).map((p) => ({ name: camelCase(p.name), type: TYPE_OF_KIND[p.kind] })),
          ...(options ? [{ name: 'options', type: options, hasQuestionToken: true }] : []),
        ],
        returnType: 'string',
      };
    }),
  });
  const members = cdn.endpoints.map((endpoint, index) => {
    const names = parametersOf(definitions[index]!).map((p) => camelCase(p.name));
    const options = optionsTypeOf(endpoint) ? ['options'] : [];
    return `${endpoint.name}: (${[...names, ...options].join(', ')}) => cdnUrl(bases, cdnEndpoints.${endpoint.name}, [${names.join(', ')}]${options.length > 0 ? ', options' : ''})`;
  });
  file.addFunction({
    name: 'createCdnHelpers',
    isExported: true,
    docs: ['@internal Built by `createCdn` (src/cdn/), which checks the base URLs.'],
    parameters: [{ name: 'bases', type: 'CdnBases' }],
    returnType: 'Cdn',
    statements: [`return {\n${members.join(',\n')}\n};`],
  });
}

function helperDoc(endpoint: CdnCatalogEndpoint, definition: CdnEndpoint): string {
  const extensions = endpoint.extensions;
  const tail =
    extensions.length === 0 ? '' : extensions.length === 1 ? `.${extensions[0]}` : `.{${extensions.join('|')}}`;
  const behaviour: string[] = [];
  if (extensions.length > 1)
    behaviour.push(`Served as ${extensions.join(', ')}; \`${extensions[0]}\` unless \`extension\` says otherwise.`);
  for (const extension of endpoint.mediaProxy ?? [])
    behaviour.push(`\`${extension}\` is served by the media proxy (\`mediaBaseUrl\`), not the CDN.`);
  if (endpoint.animated === 'hash')
    behaviour.push(
      'A hash starting `a_` is an animated image: animated WebP (`.webp?animated=true`) by default, `.gif` with',
      "`extension: 'gif'`; `{ animated: false }` or `png`/`jpeg` ask for a still image.",
    );
  if (endpoint.animated === 'option')
    behaviour.push(
      "`{ animated: true }`: the animated image (`.webp?animated=true`, or `.gif` with `extension: 'gif'`).",
    );
  if (endpoint.sizeIgnored && extensions.length > 0)
    behaviour.push('The service ignores `?size=` here: the helper takes no size.');
  const lines = [`${endpoint.summary}: the URL of the file on the CDN.`, '', `\`${endpoint.path}${tail}\``];
  if (behaviour.length > 0) lines.push('', ...behaviour);
  if (endpoint.note) lines.push('', endpoint.note);
  lines.push('');
  for (const parameter of parametersOf(definition)) {
    const what =
      parameter.kind === 'snowflake'
        ? 'an id: decimal string or bigint'
        : parameter.kind === 'hash'
          ? 'the hash (or asset id) as the API gives it: text without slashes, percent-encoded for you'
          : 'a whole number from 0 to 5';
    lines.push(`@param ${camelCase(parameter.name)} - \`{${parameter.name}}\`, ${what}.`);
  }
  const optionNames = [
    ...(extensions.length > 0 ? [`\`extension\` (${extensions.join(', ')})`] : []),
    ...(definition.sized ? ['`size` (a power of two from 16 to 4096)'] : []),
    ...(endpoint.animated ? ['`animated`'] : []),
  ];
  if (optionNames.length > 0) lines.push(`@param options - ${optionNames.join(', ')}.`);
  lines.push(
    '@returns The absolute URL; nothing is sent. A malformed argument or option throws TollgateArgumentError.',
  );
  const [call, url] = example(endpoint, definition);
  lines.push('@example', '```ts', `cdn.${call};`, `// ${url}`, '```');
  if (endpoint.deprecated) lines.push(`@deprecated ${endpoint.deprecated}`);
  return lines.join('\n');
}

/** An example call and the URL it returns on the service's CDN (computed by the runtime itself). */
function example(endpoint: CdnCatalogEndpoint, definition: CdnEndpoint): [string, string] {
  const args = parametersOf(definition).map((parameter) =>
    parameter.kind === 'index'
      ? '3'
      : parameter.kind === 'hash'
        ? `'${endpoint.animated === 'hash' ? 'a_' : ''}1269e74af4df7417b13759eae50c83dc'`
        : `'${EXAMPLE_IDS[parameter.name] ?? '1049102736420311040'}'`,
  );
  const options: Record<string, string | number | boolean> | undefined = endpoint.mediaProxy
    ? { extension: endpoint.mediaProxy[0]! }
    : endpoint.animated === 'option'
      ? { animated: true, size: 64 }
      : definition.sized && endpoint.extensions.length > 0
        ? { size: 256 }
        : undefined;
  const values = args.map((text) => (text.startsWith("'") ? text.slice(1, -1) : Number(text)));
  const url = cdnUrl({ cdn: CDN_BASE_URL, media: MEDIA_BASE_URL }, definition, values, options);
  const optionsText =
    options &&
    `{ ${Object.entries(options)
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? `'${value}'` : value}`)
      .join(', ')} }`;
  return [`${endpoint.name}(${[...args, ...(optionsText ? [optionsText] : [])].join(', ')})`, url];
}

/** The README's section on the CDN helpers. */
export function cdnReadme(cdn: CdnCatalog): string[] {
  const rows = cdn.endpoints.map((endpoint) => {
    const animated =
      endpoint.animated === 'hash' ? '`a_` hash' : endpoint.animated === 'option' ? '`{ animated: true }`' : '';
    const extensions = endpoint.extensions.length > 0 ? endpoint.extensions.join(', ') : '(none)';
    return `| \`cdn.${endpoint.name}\` | \`${endpoint.path}\` | ${extensions} | ${animated} | ${endpoint.summary}${endpoint.deprecated ? ' (deprecated)' : ''} |`;
  });
  return [
    '## CDN URL helpers',
    '',
    `\`cdn.<helper>(…)\` and \`createCdn({ baseUrl })\` build the URL of a file on the CDN and send nothing: ${cdn.endpoints.length} endpoints, from \`catalog/cdn.ts\`.`,
    '',
    '| Helper | Path | Extensions (default first) | Animated by | Documented name |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

/** The names `generated/index.ts` re-exports from `cdn.ts`: values, then types. */
export function cdnExports(cdn: CdnCatalog): { values: string[]; types: string[] } {
  const types = cdn.endpoints.filter((endpoint) => endpoint.extensions.length > 0).map(extensionType);
  return { values: ['cdnEndpoints'], types: ['Cdn', ...types].sort() };
}
