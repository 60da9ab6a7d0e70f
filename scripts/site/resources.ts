/**
 * The typed methods on the site as a caller writes them. Each generated resource class
 * (`ChannelsMessagesApi`) is reached from the client by a path of properties
 * (`client.channels.messages`); the site groups the classes by their top-level resource
 * (`client.channels`), and its search finds a method by that path (`messages.create`), which
 * TypeDoc's own index, keyed by bare names (`create`, and every other `create`), cannot.
 */
import {
  Comment,
  CommentTag,
  Converter,
  DeclarationReflection,
  IndexEvent,
  ReflectionKind,
  type Application,
  type ProjectReflection,
  type Reflection,
} from 'typedoc';

/** The interface of the client's resources (generated/index.ts): the root of every path. */
const ROOT_INTERFACE = 'Resources';
/** The search index's field for the paths, weighted as TypeDoc weights names. */
const CALL_FIELD = 'call';
const CALL_WEIGHT = 10;

/** Groups the resource classes and indexes their members by path, on `app`'s next conversion and render. */
export function resourcePaths(app: Application): void {
  const paths = new Map<Reflection, string>();
  // Before TypeDoc groups the reflections (its own listener runs at priority -100).
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    paths.clear();
    for (const [resource, path] of resourceClasses(context.project)) {
      const group = path.split('.').slice(0, 2).join('.');
      resource.comment ??= new Comment();
      resource.comment.blockTags.push(new CommentTag('@group', [{ kind: 'text', text: group }]));
      paths.set(resource, path);
      for (const member of resource.children ?? []) {
        if (member.kindOf(ReflectionKind.Method)) paths.set(member, `${path}.${member.name}`);
      }
    }
  });
  app.renderer.on(IndexEvent.PREPARE_INDEX, (event) => {
    event.searchFieldWeights[CALL_FIELD] = CALL_WEIGHT;
    event.searchResults.forEach((reflection, index) => {
      const path = paths.get(reflection);
      if (path !== undefined) event.searchFields[index] = { ...event.searchFields[index], [CALL_FIELD]: path };
    });
  });
}

/**
 * Every resource class reachable from the client, with its path: `Resources`' properties, then
 * each class's properties whose type is another class, depth first. (The classes are exported
 * as types only, so TypeDoc shows them as interfaces.) Throws when there is no
 * `Resources` to start from: a site without its typed methods is not worth building.
 */
function resourceClasses(project: ProjectReflection): Map<DeclarationReflection, string> {
  const root = project
    .getReflectionsByKind(ReflectionKind.Interface)
    .find((reflection) => reflection.name === ROOT_INTERFACE);
  if (!(root instanceof DeclarationReflection)) {
    throw new Error(`site: no interface ${ROOT_INTERFACE} to find the client's resources from`);
  }
  const found = new Map<DeclarationReflection, string>();
  const walk = (owner: DeclarationReflection, path: string) => {
    for (const property of owner.children ?? []) {
      if (!property.kindOf(ReflectionKind.Property) || property.type?.type !== 'reference') continue;
      const target = property.type.reflection;
      if (
        !(target instanceof DeclarationReflection) ||
        !target.kindOf(ReflectionKind.ClassOrInterface) ||
        found.has(target)
      ) {
        continue;
      }
      const childPath = `${path}.${property.name}`;
      found.set(target, childPath);
      walk(target, childPath);
    }
  };
  walk(root, 'client');
  if (found.size === 0) throw new Error(`site: ${ROOT_INTERFACE} names no resource class`);
  return found;
}
