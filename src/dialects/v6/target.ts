/**
 * v6 targets: a call's route key and bucket key (spec §5, `docs/spec/routes-v6.md`), from the
 * catalog's classification. A route outside the spec's keys is None: no bucket, only the global
 * lock (no pre-check, no post-processing).
 */
import type { CallTarget } from '../../contracts/dialect.ts';
import { catalogClassifier } from '../../routing/route-key.ts';
import { bucketKeyOf, NO_BUCKET } from '../../routing/classify.ts';
import type { OperationDefinition } from '../../routing/types.ts';

/** A v6 bucket: `RouteKey`, `RouteKey:<major id>` or `ChannelsIdMessagesId:<METHOD>:<channel id>`. */
export interface V6Bucket {
  readonly bucketKey: string;
}

const NO_BUCKET_TARGET: CallTarget<V6Bucket> = {
  routeKey: NO_BUCKET,
  bucket: null,
  exempt: false,
  webhookWithToken: false,
};

const target = (routeKey: string, bucketKey: string): CallTarget<V6Bucket> =>
  bucketKey === NO_BUCKET
    ? NO_BUCKET_TARGET
    : { routeKey, bucket: { bucketKey }, exempt: false, webhookWithToken: false };

/** A typed call: the catalog's key and its major parameter; a v10-only route is None here. */
export function v6TargetOfOperation(operation: OperationDefinition, values: readonly string[]): CallTarget<V6Bucket> {
  if (operation.v10Only) return NO_BUCKET_TARGET;
  const majorId = operation.majorIndex >= 0 ? values[operation.majorIndex] : undefined;
  return target(
    operation.routeKey,
    bucketKeyOf(operation.routeKey, operation.method, operation.bucketHoldsMethod, majorId),
  );
}

/** A raw call: classified by its path. */
export function v6TargetOfRequest(method: string, path: string): CallTarget<V6Bucket> {
  const { routeKey, bucketKey } = catalogClassifier.classify(method, path);
  return target(routeKey, bucketKey);
}
