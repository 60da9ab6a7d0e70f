/**
 * Every name the generator writes where two of them could meet: the files of `generated/`, the
 * names `generated/index.ts` exports (classes and types of every resource, the document's types,
 * the CDN's), and each class's members. Derived by the same functions the emitter names things
 * with, so two catalog names that differ only in their dots (`guilds.scheduledEventsUsers.list`
 * and `guilds.scheduledEvents.users.list`) are caught as the one identifier they would both write.
 */
import { cdnExports } from './cdn.ts';
import { flatten, type CatalogModel } from './model.ts';
import { pascalOf, queryTypeName } from './names.ts';
import type { SpecTypeNames } from './spec-types.ts';

/** Files and exports that are not a resource's own. */
const FIXED_FILES = ['README.md', 'cdn.ts', 'index.ts', 'package.ts', 'routes.ts', 'spec-types.ts'];
const FIXED_EXPORTS = ['operations', 'routeTable', 'Resources', 'createResources'];

/** One identifier written by more than one owner, in one scope. */
export interface IdentifierClash {
  /** `export`, `file`, or `member of <Class>`. */
  readonly scope: string;
  readonly identifier: string;
  /** Who writes it: `operation guilds.x.list`, `namespace guilds.x`, `the generator`. */
  readonly owners: readonly string[];
}

export function identifierClashes(
  model: CatalogModel,
  specNames: ReadonlyMap<string, SpecTypeNames>,
): IdentifierClash[] {
  const scopes = new Map<string, Map<string, string[]>>();
  const write = (scope: string, identifier: string, owner: string) => {
    const names = scopes.get(scope) ?? new Map<string, string[]>();
    scopes.set(scope, names);
    const owners = names.get(identifier) ?? [];
    if (!owners.includes(owner)) owners.push(owner);
    names.set(identifier, owners);
  };
  for (const file of FIXED_FILES) write('file', file, 'the generator');
  for (const name of [...FIXED_EXPORTS, ...Object.values(cdnExports(model.cdn)).flat()])
    write('export', name, 'the generator');

  for (const root of model.namespaces) {
    write('file', `${root.path}.ts`, `namespace ${root.path}`);
    for (const namespace of flatten(root)) {
      const members = `member of ${namespace.className}`;
      write('export', namespace.className, `namespace ${namespace.path}`);
      write(members, 'constructor', 'the generator');
      for (const [name, child] of namespace.children) write(members, name, `namespace ${child.path}`);
      for (const op of namespace.operations) {
        const owner = `operation ${op.source.name}`;
        write(members, op.verb, owner);
        if (op.source.query) write('export', queryTypeName(op), owner);
        if (op.source.paginate) {
          for (const suffix of ['All', 'Pages']) write(members, `${op.verb}${suffix}`, owner);
          for (const suffix of ['AllQuery', 'Item']) write('export', `${pascalOf(op)}${suffix}`, owner);
        }
        for (const name of Object.values(specNames.get(op.source.name) ?? {})) {
          if (name !== 'undefined') write('export', name, owner);
        }
      }
    }
  }
  const clashes: IdentifierClash[] = [];
  for (const [scope, names] of scopes) {
    for (const [identifier, owners] of names) if (owners.length > 1) clashes.push({ scope, identifier, owners });
  }
  return clashes;
}

/** One line a clash: `export GuildsScheduledEventsUsersApi: namespace a, namespace b`. */
export const describeClash = (clash: IdentifierClash) =>
  `${clash.scope} ${clash.identifier} is written by ${clash.owners.join(' and ')}`;
