/** The catalog's classifier, built once from the generated route table. */
import { routeTable } from '../../generated/index.ts';
import { TollgateArgumentError } from '../errors.ts';
import { RouteClassifier } from './classify.ts';

export const catalogClassifier = new RouteClassifier(routeTable);

/**
 * The bucket key of a request: `RouteKey` (no major parameter), `RouteKey:<id>` (channel or
 * guild id), `ChannelsIdMessagesId:<METHOD>:<channel id>`, or `None` for a path the catalog
 * does not list. `path` is relative to the API base (a leading `/api`, `/api/v6` is ignored).
 */
export function routeKeyOf(method: string, path: string): string {
  if (typeof method !== 'string')
    throw new TollgateArgumentError(`routeKeyOf: method must be a string such as "GET", got ${typeof method}`);
  if (typeof path !== 'string')
    throw new TollgateArgumentError(`routeKeyOf: path must be a string such as "/channels/1", got ${typeof path}`);
  return catalogClassifier.classify(method.toUpperCase(), path).bucketKey;
}
