/**
 * v6 targets: a call's route key and bucket key (spec §5, `docs/spec/routes-v6.md`), from the
 * catalog's route table. A route outside the spec's keys (v10's own) is None: no bucket, only the
 * global lock (no pre-check, no post-processing).
 */
import type { OperationDefinition } from '../../contracts/catalog.ts';
import { NO_BUCKET, type CallTargets, type CallTarget } from '../../contracts/dialect.ts';
import { bucketKeyOf, type RouteDefinition } from './classify.ts';
import { classifierOf } from './route-key.ts';

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

/** How a typed operation's bucket key is made, fixed by the catalog: worked out at its first call. */
interface V6KeyRecipe {
  /** Position of the major parameter among the path parameters, or -1. */
  readonly majorIndex: number;
  readonly holdsMethod: boolean;
}

/** The targets of calls under the route table `table` (one set per table). */
const targetsByTable = new WeakMap<readonly RouteDefinition[], CallTargets<V6Bucket>>();

export function v6Targets(table: readonly RouteDefinition[]): CallTargets<V6Bucket> {
  const known = targetsByTable.get(table);
  if (known) return known;
  const routes = new Map(table.map((route) => [route.key, route]));
  // null: a route beyond the spec's keys.
  const recipes = new WeakMap<OperationDefinition, V6KeyRecipe | null>();
  const recipeOf = (operation: OperationDefinition): V6KeyRecipe | null => {
    let recipe = recipes.get(operation);
    if (recipe === undefined) {
      const route = routes.get(operation.routeKey);
      const parameters = operation.path.filter((segment) => typeof segment !== 'string');
      recipe = route
        ? {
            majorIndex: route.major === null ? -1 : parameters.findIndex((parameter) => parameter.name === route.major),
            holdsMethod: route.bucketHoldsMethod,
          }
        : null;
      recipes.set(operation, recipe);
    }
    return recipe;
  };
  const targets: CallTargets<V6Bucket> = {
    targetOfOperation: (operation, _path, values) => {
      const recipe = recipeOf(operation);
      if (recipe === null) return NO_BUCKET_TARGET;
      const majorId = recipe.majorIndex >= 0 ? values[recipe.majorIndex] : undefined;
      return target(operation.routeKey, bucketKeyOf(operation.routeKey, operation.method, recipe.holdsMethod, majorId));
    },
    targetOfRequest: (method, path) => {
      const { routeKey, bucketKey } = classifierOf(table).classify(method, path);
      return target(routeKey, bucketKey);
    },
  };
  targetsByTable.set(table, targets);
  return targets;
}
