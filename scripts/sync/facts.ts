/**
 * The facts of an operation that Discord's OpenAPI document decides (SYNCED_FACTS): what the
 * document says of each, what the catalog says, whether they agree, and each as a report writes
 * it. Pure.
 */
import type { CatalogAuth, CatalogOperation } from '../../catalog/schema.ts';
import type { SpecOperation } from './openapi.ts';

/** The catalog's way of writing "a bot token alone": no `auth` at all. */
export const DEFAULT_AUTH: CatalogAuth = { bot: true };

/** Two auth facts say the same (scopes in any order). */
export function sameAuth(a: CatalogAuth, b: CatalogAuth): boolean {
  const scopes = (auth: CatalogAuth) => (auth.oauth2 === undefined ? undefined : [...auth.oauth2].sort().join(' '));
  return a.bot === b.bot && a.none === b.none && scopes(a) === scopes(b);
}

/** The facts of the catalog that the document decides, as the catalog writes them (defaults left out). */
export interface SyncedFacts {
  readonly query: readonly string[] | undefined;
  readonly queryRequired: true | undefined;
  readonly body: 'required' | 'optional' | undefined;
  readonly encoding: {
    readonly encoding: CatalogOperation['encoding'];
    readonly attachmentsIn: CatalogOperation['attachmentsIn'];
  };
  readonly allowedMentionsIn: CatalogOperation['allowedMentionsIn'];
  readonly binaryResult: true | undefined;
  readonly auth: CatalogAuth | undefined;
}

/** What the document says of each synced fact, in the catalog's terms. */
export function factsOf(operation: SpecOperation): SyncedFacts {
  const hasBody = operation.body !== 'none';
  const query = operation.query.map((parameter) => parameter.name);
  return {
    query: query.length > 0 ? query : undefined,
    // The catalog's flag is for reads: a call with a body may still leave its query out.
    queryRequired: !hasBody && operation.query.some((parameter) => parameter.required) ? true : undefined,
    body: hasBody ? (operation.body as 'required' | 'optional') : undefined,
    encoding: {
      encoding: hasBody && operation.encoding !== 'json' ? operation.encoding : undefined,
      attachmentsIn: hasBody && operation.attachmentsIn !== null ? operation.attachmentsIn : undefined,
    },
    allowedMentionsIn: hasBody ? (operation.allowedMentionsIn ?? undefined) : undefined,
    binaryResult: operation.binaryResult ? true : undefined,
    auth: sameAuth(operation.auth, DEFAULT_AUTH) ? undefined : operation.auth,
  };
}

/** The same facts as a catalog operation has them. */
export function catalogFactsOf(operation: CatalogOperation): SyncedFacts {
  return {
    query: operation.query,
    queryRequired: operation.queryRequired,
    body: operation.body,
    encoding: { encoding: operation.encoding, attachmentsIn: operation.attachmentsIn },
    allowedMentionsIn: operation.allowedMentionsIn,
    binaryResult: operation.binaryResult,
    auth: operation.auth,
  };
}

/** Whether the catalog's value of `fact` says what the document's does. */
export function sameFact(fact: keyof SyncedFacts, catalog: SyncedFacts, document: SyncedFacts): boolean {
  switch (fact) {
    case 'query': {
      // The catalog may order its parameters its own way; which ones it has is the document's.
      const names = (list: readonly string[] | undefined) => [...(list ?? [])].sort().join(' ');
      return names(catalog.query) === names(document.query);
    }
    case 'encoding':
      return (
        (catalog.encoding.encoding ?? 'json') === (document.encoding.encoding ?? 'json') &&
        (catalog.encoding.attachmentsIn ?? null) === (document.encoding.attachmentsIn ?? null)
      );
    case 'auth':
      return sameAuth(catalog.auth ?? DEFAULT_AUTH, document.auth ?? DEFAULT_AUTH);
    default:
      return catalog[fact] === document[fact];
  }
}

/** A fact's value for a report line: `["limit","after"]`, `json+files (in data)`, `bot, oauth2 [identify]`. */
export function describeFact(fact: keyof SyncedFacts, facts: SyncedFacts): string {
  switch (fact) {
    case 'query':
      return facts.query ? facts.query.join(', ') : '(none)';
    case 'queryRequired':
      return facts.queryRequired ? 'required' : 'optional';
    case 'body':
      return facts.body ?? 'none';
    case 'binaryResult':
      return facts.binaryResult ? 'bytes' : 'JSON';
    case 'allowedMentionsIn':
      return facts.allowedMentionsIn ? `allowed_mentions in ${facts.allowedMentionsIn}` : 'no allowed_mentions';
    case 'encoding': {
      const { encoding, attachmentsIn } = facts.encoding;
      return `${encoding ?? 'json'}${attachmentsIn ? ` (attachments in ${attachmentsIn})` : ''}`;
    }
    case 'auth': {
      const auth = facts.auth ?? DEFAULT_AUTH;
      const parts = [
        ...(auth.bot ? ['bot token'] : []),
        ...(auth.oauth2 ? [`OAuth2 ${auth.oauth2.length === 0 ? '(any scope)' : `[${auth.oauth2.join(', ')}]`}`] : []),
        ...(auth.none ? ['no token'] : []),
      ];
      return parts.join(' or ');
    }
  }
}
