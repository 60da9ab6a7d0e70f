/**
 * Invented history: random edits of the kinds Discord makes, applied to the pinned document,
 * each synced and built (scripts/sync/replay.ts, one step from today's catalog). The SDK must
 * build; an additive edit must be reported additive (or added) for the method it touches and
 * break no call that compiled before, which the replay checks by compiling those calls; a
 * breaking edit must be reported breaking. One run of each kind per suite: a run is a sync, two
 * SDKs and two TypeScript programs (about 5 s).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import type { CatalogOperation } from '../../catalog/schema.ts';
import { replay, type ReplayStep } from '../../scripts/sync/replay.ts';

const root = join(import.meta.dirname, '..', '..');
const PINNED = readFileSync(join(root, 'catalog', 'discord-openapi', 'openapi.json'), 'utf8');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Target {
  readonly path: string;
  readonly method: string;
  readonly operation: Json;
  readonly name: string;
  readonly source: CatalogOperation;
}

const byOperationId = new Map(
  catalog.routes.flatMap((route) =>
    route.operations.filter((op) => op.operationId && !op.removedIn).map((op) => [op.operationId!, op] as const),
  ),
);

/** Every operation of a (fresh) copy of the pinned document that the catalog follows. */
function targets(document: Json): Target[] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => method !== 'parameters')
      .flatMap(([method, operation]) => {
        const source = byOperationId.get((operation as Json).operationId);
        return source ? [{ path, method, operation: operation as Json, name: source.name, source }] : [];
      }),
  );
}

const queryOf = (target: Target) => ((target.operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
const jsonBody = (target: Target) => target.operation.requestBody?.content?.['application/json']?.schema as Json;
/** A body typed from the document (not by discord-api-types), of a JSON object. */
const documentTypedBody = (document: Json) => (target: Target) => {
  let schema = jsonBody(target);
  if (schema === undefined || target.source.types?.body || target.source.keep?.body) return false;
  if (schema.$ref) schema = document.components.schemas[String(schema.$ref).split('/').pop()!];
  // An object of named fields (a map of any keys, `additionalProperties`, takes any field already).
  const object = schema?.type === 'object' || (Array.isArray(schema?.type) && schema.type.includes('object'));
  return object && schema.properties !== undefined && schema.additionalProperties === undefined;
};

interface Edit {
  readonly kind: string;
  /** Which operations it may touch. */
  readonly eligible: (document: Json) => (target: Target) => boolean;
  /** Edits the document in place; returns the documents to sync in turn (the last is the edit). */
  readonly apply: (document: Json, target: Target) => Json[];
  readonly expect: (steps: readonly ReplayStep[], target: Target) => void;
}

const noBreak = (step: ReplayStep) => {
  expect(step).toMatchObject({ code: 0, diagnostics: [], brokenCalls: [], unreported: [], breaking: [] });
};
const reported = (step: ReplayStep, method: string, kind: string) =>
  expect(step.surfaceChanges.filter((change) => change.method === method).map((change) => change.change)).toContain(
    kind,
  );
const copy = (document: Json) => JSON.parse(JSON.stringify(document)) as Json;

const EDITS: readonly Edit[] = [
  {
    kind: 'a new optional query parameter on an operation with none',
    eligible: () => (t) =>
      queryOf(t).length === 0 && !t.source.query && !jsonBody(t) && t.method === 'get' && !t.source.link,
    apply: (document, t) => {
      t.operation.parameters = [
        ...(t.operation.parameters ?? []),
        { name: 'with_probe', in: 'query', required: false, schema: { type: 'boolean' } },
      ];
      return [document];
    },
    expect: ([step], t) => {
      noBreak(step!);
      reported(step!, t.name, 'additive');
    },
  },
  {
    kind: 'a new optional body field',
    eligible: documentTypedBody,
    apply: (document, t) => {
      let schema = jsonBody(t);
      if (schema.$ref) schema = document.components.schemas[String(schema.$ref).split('/').pop()!];
      schema.properties = { ...schema.properties, probe_note: { type: ['string', 'null'] } };
      return [document];
    },
    expect: ([step], t) => {
      noBreak(step!);
      reported(step!, t.name, 'additive');
    },
  },
  {
    kind: 'a new body on an operation that had none',
    eligible: () => (t) => !jsonBody(t) && ['post', 'patch', 'delete'].includes(t.method) && !t.source.body,
    apply: (document, t) => {
      t.operation.requestBody = {
        required: false,
        content: {
          'application/json': { schema: { type: 'object', properties: { probe_note: { type: ['string', 'null'] } } } },
        },
      };
      return [document];
    },
    expect: ([step], t) => {
      noBreak(step!);
      reported(step!, t.name, 'additive');
    },
  },
  {
    kind: 'a new nested resource under a parameter',
    eligible: () => (t) => /\{[a-z_]+_id\}$/.test(t.path) && t.method === 'get',
    apply: (document, t) => {
      document.paths[`${t.path}/probes`] = {
        parameters: document.paths[t.path].parameters,
        get: {
          operationId: 'list_probes',
          parameters: t.operation.parameters,
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } },
            },
          },
          security: [{ BotToken: [] }],
        },
      };
      return [document];
    },
    expect: ([step]) => {
      noBreak(step!);
      expect(step!.added).toBe(1);
      expect(step!.surface.added).toBeGreaterThan(0);
    },
  },
  {
    kind: 'a renamed operationId',
    eligible: () => () => true,
    apply: (document, t) => {
      t.operation.operationId = `probe_${String(t.operation.operationId)}`;
      return [document];
    },
    expect: ([step], t) => {
      noBreak(step!);
      expect(step!.added).toBe(0);
      reported(step!, t.name, 'renamed');
    },
  },
  {
    kind: 'a renamed path parameter',
    eligible: () => (t) => /\{[a-z_]+\}/.test(t.path),
    apply: (document, t) => {
      const from = /\{([a-z_]+)\}/.exec(t.path)![1]!;
      const to = `probe_${from}`;
      const path = t.path.replace(`{${from}}`, `{${to}}`);
      const rename = (value: unknown): unknown =>
        JSON.parse(JSON.stringify(value).replaceAll(`"name":"${from}"`, `"name":"${to}"`));
      document.paths = Object.fromEntries(
        Object.entries(document.paths as Json).map(([key, item]) =>
          key === t.path ? [path, rename(item)] : [key, item],
        ),
      );
      return [document];
    },
    expect: ([step]) => {
      noBreak(step!);
      expect(step!.added).toBe(0);
      expect(step!.removed).toBe(0);
    },
  },
  {
    kind: 'a body made required',
    eligible: documentTypedBody,
    apply: (document, t) => {
      // First optional (an addition), then required again: the second step narrows.
      t.operation.requestBody.required = false;
      const optional = copy(document);
      t.operation.requestBody.required = true;
      return [optional, document];
    },
    expect: ([optional, required], t) => {
      noBreak(optional!);
      reported(optional!, t.name, 'additive');
      expect(required).toMatchObject({ code: 0, diagnostics: [], unreported: [] });
      expect(required!.breaking).toContain(t.name);
    },
  },
  {
    kind: 'a removal',
    eligible: () => (t) => !t.source.paginate,
    apply: (document, t) => {
      document.paths[t.path] = Object.fromEntries(
        Object.entries(document.paths[t.path] as Json).filter(([method]) => method !== t.method),
      );
      return [document];
    },
    expect: ([step], t) => {
      noBreak(step!);
      expect(step!.removed).toBe(1);
      reported(step!, t.name, 'deprecated');
    },
  },
];

describe('random edits of the pinned document: the sync builds, reports additive as additive and breaking as breaking', () => {
  for (const edit of EDITS) {
    it(
      edit.kind,
      async () => {
        const eligible = targets(JSON.parse(PINNED) as Json).filter(edit.eligible(JSON.parse(PINNED) as Json));
        expect(eligible.length).toBeGreaterThan(0);
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 0, max: eligible.length - 1 }), async (index) => {
            const document = JSON.parse(PINNED) as Json;
            const target = targets(document).find((t) => t.name === eligible[index]!.name)!;
            const documents = edit.apply(document, target);
            const steps = await replay(
              documents.map((edited, step) => ({
                build: `edit-${step}`,
                date: '2026-11-26',
                text: () => JSON.stringify(edited),
              })),
              { root },
            );
            edit.expect(steps, target);
          }),
          { numRuns: 1 },
        );
      },
      120_000,
    );
  }
});
