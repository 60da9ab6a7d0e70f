/**
 * From the validated catalog to what the emitter writes: route definitions, operation
 * definitions, and the namespace tree of the typed client (`channels.messages.reactions`).
 */
import type { Catalog, CatalogAuth, CatalogOperation, CatalogRoute, ParameterKind } from '../../catalog/schema.ts';
import type { OperationDefinition, PathSegment, RouteDefinition, TokenKind } from '../../src/sdk.ts';
import { pascalCase } from '../words.ts';

export interface OperationModel {
  readonly definition: OperationDefinition;
  readonly route: CatalogRoute;
  readonly source: CatalogOperation;
  /** Path parameters in path order. */
  readonly parameters: readonly { readonly name: string; readonly kind: ParameterKind }[];
  readonly pathText: string;
  readonly verb: string;
}

export interface NamespaceModel {
  /** Dotted path from the client, e.g. `channels.messages`. */
  readonly path: string;
  readonly className: string;
  readonly operations: OperationModel[];
  readonly children: Map<string, NamespaceModel>;
}

export interface CatalogModel {
  readonly routes: readonly RouteDefinition[];
  /** The spec's keys alone (no `v10Only` route): what the v6 dialect classifies paths by. */
  readonly v6Routes: readonly RouteDefinition[];
  readonly operations: readonly OperationModel[];
  /** Top-level namespaces (`channels`, `guilds`, …), each emitted to its own file. */
  readonly namespaces: readonly NamespaceModel[];
  /** The CDN's image endpoints, emitted to `cdn.ts` (`codegen/cdn.ts`). */
  readonly cdn: Catalog['cdn'];
}

export function splitPattern(path: string, catalog: Catalog): PathSegment[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      return name === undefined ? segment : { name, kind: catalog.parameters[name]! };
    });
}

export function buildModel(catalog: Catalog): CatalogModel {
  const routes: RouteDefinition[] = catalog.routes.map((route) => {
    const shapes = [route.path, ...(route.aliases ?? []), ...route.operations.map((op) => op.path ?? route.path)];
    return {
      key: route.key,
      major: route.major,
      bucketHoldsMethod: route.bucketHoldsMethod === true,
      patterns: [...new Set(shapes)].map((shape) => splitPattern(shape, catalog)),
    };
  });

  const operations: OperationModel[] = catalog.routes.flatMap((route) =>
    route.operations.map((source) => {
      const pathText = source.path ?? route.path;
      const path = splitPattern(pathText, catalog);
      const parameters = path.filter((segment) => typeof segment !== 'string');
      const definition: OperationDefinition = {
        name: source.name,
        routeKey: route.key,
        method: source.method,
        path,
        // Deprecated (OperationDefinition.major): kept for readers of `operations` for one minor version.
        major: route.major,
        body: source.body ?? 'none',
        ...(source.bodyIn === 'options' && { bodyInOptions: true as const }),
        queryRequired: source.queryRequired === true,
        encoding: source.encoding ?? 'json',
        attachmentsIn: source.attachmentsIn ?? null,
        ...(source.allowedMentionsIn && { allowedMentionsIn: source.allowedMentionsIn }),
        binaryResult: source.binaryResult === true,
        unauthenticated: source.unauthenticated === true,
        auditLogReason: source.auditLogReason === true,
        ...refusedTokensOf(source.auth),
      };
      return { definition, route, source, parameters, pathText, verb: source.name.split('.').at(-1)! };
    }),
  );

  const roots = new Map<string, NamespaceModel>();
  for (const operation of operations) {
    const parts = operation.source.name.split('.').slice(0, -1);
    let siblings = roots;
    let namespace: NamespaceModel | undefined;
    parts.forEach((part, index) => {
      const path = parts.slice(0, index + 1).join('.');
      namespace = siblings.get(part);
      if (!namespace) {
        namespace = {
          path,
          className: `${pascalCase(path)}Api`,
          operations: [],
          children: new Map(),
        };
        siblings.set(part, namespace);
      }
      siblings = namespace.children;
    });
    namespace!.operations.push(operation);
  }
  const v6Routes = routes.filter((_, index) => !catalog.routes[index]!.v10Only);
  return { routes, v6Routes, operations, namespaces: [...roots.values()], cdn: catalog.cdn };
}

/** Every namespace below (and including) `root`, parents before children. */
export function flatten(root: NamespaceModel): NamespaceModel[] {
  return [root, ...[...root.children.values()].flatMap(flatten)];
}

/** The kinds of token an operation's `auth` turns away (absent auth: a bot token alone; `none`: any). */
function refusedTokensOf(auth: CatalogAuth | undefined): { refusedTokens?: TokenKind[] } {
  if (auth?.none) return {};
  const refused: TokenKind[] = [];
  if (auth !== undefined && !auth.bot) refused.push('bot');
  if (auth?.oauth2 === undefined) refused.push('bearer');
  return refused.length > 0 ? { refusedTokens: refused } : {};
}
