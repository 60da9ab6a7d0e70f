/**
 * v6 route classification (spec §5, `docs/spec/routes-v6.md`): (method, path) → bucket key, by a
 * trie built from the catalog's route table. Literal segments win over parameters (`/users/@me`
 * is UsersMe, not UsersId), ids match only unsigned 64-bit decimals, and any path the table does
 * not hold is `None`.
 */
import type { MajorParameter, ParameterKind, PathSegment } from '../../contracts/catalog.ts';
import { NO_BUCKET } from '../../contracts/dialect.ts';
import { parseSnowflake, routePath } from '../../paths/path.ts';

/** One of the spec's route keys and the path shapes classified under it: a row of `generated/`'s `routeTable`. */
export interface RouteDefinition {
  /** The spec's route key, e.g. `ChannelsIdMessages`. */
  readonly key: string;
  readonly major: MajorParameter | null;
  /** The bucket key also holds the request method (the message-by-id key). */
  readonly bucketHoldsMethod: boolean;
  /** Every path shape classified under this key, split into segments. */
  readonly patterns: readonly (readonly PathSegment[])[];
}

interface Leaf {
  readonly route: RouteDefinition;
  /** Position of the major parameter among this pattern's parameters, or -1. */
  readonly majorIndex: number;
}

interface TrieNode {
  readonly literals: Map<string, TrieNode>;
  snowflake?: TrieNode;
  text?: TrieNode;
  leaf?: Leaf;
}

const newNode = (): TrieNode => ({ literals: new Map() });

export class RouteClassifier {
  readonly #root = newNode();

  constructor(routes: readonly RouteDefinition[]) {
    for (const route of routes) {
      for (const pattern of route.patterns) {
        let node = this.#root;
        let majorIndex = -1;
        let parameterIndex = 0;
        for (const segment of pattern) {
          if (typeof segment === 'string') {
            node = getOrAdd(node.literals, segment);
            continue;
          }
          if (segment.name === route.major) majorIndex = parameterIndex;
          parameterIndex += 1;
          const slot = slotOf(segment.kind);
          node = node[slot] ??= newNode();
        }
        if (node.leaf && node.leaf.route.key !== route.key) {
          throw new Error(`Route table conflict: ${route.key} and ${node.leaf.route.key} share a path shape`);
        }
        node.leaf = { route, majorIndex };
      }
    }
  }

  /**
   * The bucket key for a request: `RouteKey`, `RouteKey:<major id>` or
   * `ChannelsIdMessagesId:<METHOD>:<channel id>`; `None` for paths outside the table.
   * `path` is relative to the API base; a leading `/api` and `/v<N>` are ignored, and so are
   * the query string and fragment.
   */
  classify(method: string, path: string): { routeKey: string; bucketKey: string } {
    const segments = splitPath(path);
    if (segments === undefined) return { routeKey: NO_BUCKET, bucketKey: NO_BUCKET };
    const values: string[] = [];
    const leaf = match(this.#root, segments, 0, values);
    if (!leaf) return { routeKey: NO_BUCKET, bucketKey: NO_BUCKET };
    const { route, majorIndex } = leaf;
    return {
      routeKey: route.key,
      bucketKey: bucketKeyOf(route.key, method, route.bucketHoldsMethod, values[majorIndex]),
    };
  }
}

/** Builds a bucket key from its parts; the one place the key format is written. */
export function bucketKeyOf(
  routeKey: string,
  method: string,
  holdsMethod: boolean,
  majorId: string | undefined,
): string {
  if (majorId === undefined) return routeKey;
  return holdsMethod ? `${routeKey}:${method.toUpperCase()}:${majorId}` : `${routeKey}:${majorId}`;
}

function slotOf(kind: ParameterKind): 'snowflake' | 'text' {
  return kind === 'snowflake' ? 'snowflake' : 'text';
}

function getOrAdd(map: Map<string, TrieNode>, key: string): TrieNode {
  let node = map.get(key);
  if (!node) {
    node = newNode();
    map.set(key, node);
  }
  return node;
}

/** Depth-first, literal before id before free text, so the most specific shape wins. */
function match(node: TrieNode, segments: readonly string[], index: number, values: string[]): Leaf | undefined {
  if (index === segments.length) return node.leaf;
  const segment = segments[index]!;
  const literal = node.literals.get(segment);
  if (literal) {
    const found = match(literal, segments, index + 1, values);
    if (found) return found;
  }
  if (node.snowflake) {
    const id = parseSnowflake(segment);
    if (id !== undefined) {
      values.push(id);
      const found = match(node.snowflake, segments, index + 1, values);
      if (found) return found;
      values.pop();
    }
  }
  if (node.text && segment !== '' && segment !== '.' && segment !== '..') {
    values.push(segment);
    const found = match(node.text, segments, index + 1, values);
    if (found) return found;
    values.pop();
  }
  return undefined;
}

function splitPath(path: string): string[] | undefined {
  if (typeof path !== 'string') return undefined;
  let clean = routePath(path);
  if (clean.length > 1 && clean.endsWith('/')) clean = clean.slice(0, -1);
  if (clean === '' || clean === '/') return undefined;
  return clean.slice(1).split('/');
}
