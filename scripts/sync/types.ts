/**
 * What a sync diff holds: the report's lists and the edits of the catalog's source. Types only,
 * shared by the diff, the drafts and the writer.
 */
import type { CatalogRoute, CatalogOperation, ParameterKind, SyncedFact } from '../../catalog/schema.ts';

export interface SyncOptions {
  /** The build of the document, named in `removedIn`. */
  readonly build: string;
  /** Delete removed operations instead of marking them. */
  readonly prune: boolean;
  /** Take a document that removes more than `MAX_REMOVED_SHARE` of the synced operations. */
  readonly allowRemovals?: boolean;
}

/** One edit of catalog/routes.ts; `edits.ts` applies them in order. */
export type CatalogEdit =
  | { readonly kind: 'add-parameter'; readonly name: string; readonly parameterKind: ParameterKind }
  | { readonly kind: 'add-route'; readonly route: CatalogRoute; readonly afterKey: string | undefined }
  | { readonly kind: 'add-operation'; readonly routeKey: string; readonly operation: CatalogOperation }
  | {
      readonly kind: 'set';
      readonly operationName: string;
      /** Properties to write (undefined: remove the property). */
      readonly properties: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'remove-operation'; readonly operationName: string };

export interface AddedOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly name: string;
  readonly routeKey: string;
  /** The route is new (else the operation joins an existing route of its path). */
  readonly newRoute: boolean;
  /** The natural name was taken: why, and that `name` is the proposal. */
  readonly collision?: string;
  /** What a person should look at (a credential in the path, a token the call may go without). */
  readonly notes: readonly string[];
}

export interface FactChange {
  readonly fact: SyncedFact;
  readonly from: string;
  readonly to: string;
}

export interface ChangedOperation {
  readonly name: string;
  readonly operationId: string;
  readonly changes: readonly FactChange[];
}

export interface KeptFact {
  readonly name: string;
  readonly fact: SyncedFact;
  readonly reason: string;
  readonly catalog: string;
  readonly document: string;
}

export interface RemovedOperation {
  readonly name: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** `deprecated` now, `pruned` (deleted), or `still removed` (marked by an earlier sync). */
  readonly action: 'deprecated' | 'pruned' | 'still removed';
  /** The operationId moved to another path, drafted as this operation: the old name says so. */
  readonly renamedTo?: string;
}

export interface CatalogDiff {
  readonly build: string;
  /** Operations of the document. */
  readonly documentOperations: number;
  readonly added: readonly AddedOperation[];
  readonly removed: readonly RemovedOperation[];
  readonly changed: readonly ChangedOperation[];
  /** Catalog operations now linked to their operationId (matched by method and path). */
  readonly linked: readonly { readonly name: string; readonly operationId: string }[];
  /** Operations marked removed that the document has again. */
  readonly restored: readonly { readonly name: string; readonly operationId: string }[];
  readonly kept: readonly KeptFact[];
  /** Hand facts the document contradicts, which a person must settle. */
  readonly conflicts: readonly string[];
  /** Catalog operations the document does not have and that follow none of its operations. */
  readonly handKept: number;
  readonly newParameters: Readonly<Record<string, ParameterKind>>;
  readonly edits: readonly CatalogEdit[];
}
