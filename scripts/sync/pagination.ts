/** The pagination facts catalog:sync proposes for a new list, where the document shows them. Pure. */
import type { CatalogPagination } from '../../catalog/schema.ts';
import type { SpecOperation } from './openapi.ts';

/**
 * Pagination facts the document shows for a new list, or why a person must write them:
 * - `limit` with a maximum, `before`/`after` ids and a list (or a wrapper with one list): id
 *   cursors; `before` alone walks newest-first, otherwise oldest-first;
 * - `limit` and `offset` with maxima and a wrapper with one list: offsets;
 * - a `before` timestamp: the item's field it comes from is not in the document.
 */
export function proposePagination(operation: Pick<SpecOperation, 'method' | 'query' | 'resultShape'>): {
  readonly facts?: CatalogPagination;
  readonly note?: string;
} {
  const query = new Map(operation.query.map((parameter) => [parameter.name, parameter]));
  const limit = query.get('limit')?.maximum;
  const cursors = (['before', 'after'] as const).filter((name) => query.has(name));
  const offset = query.get('offset');
  if (operation.method !== 'GET' || limit === undefined || (cursors.length === 0 && !offset)) return {};
  const shape = operation.resultShape;
  const items = shape.list ? undefined : shape.lists.length === 1 ? shape.lists[0] : undefined;
  if (!shape.list && items === undefined) {
    return {
      note: `a paged list whose items the document does not single out (${shape.lists.join(', ') || 'no list'}): add paginate by hand`,
    };
  }
  const hasMore = shape.members.includes('has_more') ? { hasMore: 'has_more' } : {};
  const total = shape.members.includes('total_results') ? { total: 'total_results' } : {};
  if (offset) {
    if (offset.maximum === undefined || items === undefined)
      return { note: 'a list paged by offset without a maximum offset or a list member: add paginate by hand' };
    return {
      facts: {
        cursor: 'offset',
        parameters: [],
        order: 'newest-first',
        pageOrder: 'descending',
        limit,
        maxOffset: offset.maximum,
        items,
        cursorFrom: 'id',
        ...hasMore,
        ...total,
      },
      note: 'pagination proposed (offsets): check the sort order and the item',
    };
  }
  if (cursors.some((name) => query.get(name)!.timestamp)) {
    return { note: 'a list paged by timestamp: add paginate by hand, with the item field the cursor comes from' };
  }
  const newest = cursors.length === 1 && cursors[0] === 'before';
  return {
    facts: {
      cursor: 'id',
      parameters: [...cursors],
      order: newest ? 'newest-first' : 'oldest-first',
      pageOrder: newest ? 'descending' : 'ascending',
      limit,
      ...(items !== undefined && { items }),
      cursorFrom: 'id',
      ...hasMore,
    },
    note: `pagination proposed (id cursors ${cursors.join(', ')}, ${limit} a page): check the order and the item's id field`,
  };
}
