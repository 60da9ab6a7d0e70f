/** `routeKeyOf` over a route table: the classifier is built at its first use, not at import. */
import { TollgateArgumentError } from '../../errors.ts';
import { RouteClassifier, type RouteDefinition } from './classify.ts';

const classifiers = new WeakMap<readonly RouteDefinition[], RouteClassifier>();

/** The classifier of `table`, built once per table, when first asked for. */
export function classifierOf(table: readonly RouteDefinition[]): RouteClassifier {
  let classifier = classifiers.get(table);
  if (classifier === undefined) {
    classifier = new RouteClassifier(table);
    classifiers.set(table, classifier);
  }
  return classifier;
}

/**
 * `routeKeyOf(method, path)` on `table`: the v6 bucket key of a request: `RouteKey` (no major
 * parameter), `RouteKey:<id>` (channel or guild id), `ChannelsIdMessagesId:<METHOD>:<channel id>`,
 * or `None` for a path the table does not list. `path` is relative to the API base (a leading
 * `/api`, `/api/v6` is ignored).
 */
export function routeKeyFinder(table: readonly RouteDefinition[]): (method: string, path: string) => string {
  return (method, path) => {
    if (typeof method !== 'string')
      throw new TollgateArgumentError(`routeKeyOf: method must be a string such as "GET", got ${typeof method}`);
    if (typeof path !== 'string')
      throw new TollgateArgumentError(`routeKeyOf: path must be a string such as "/channels/1", got ${typeof path}`);
    return classifierOf(table).classify(method.toUpperCase(), path).bucketKey;
  };
}
