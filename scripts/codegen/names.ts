/**
 * How generated code names an operation's parts: its types' references and names, and the sample
 * values of the examples. Shared by the emitter, the iterators and the README.
 */
import { camelCase } from '../../src/paths/path.ts';
import type { OperationModel } from './model.ts';
import type { SpecTypeNames } from './spec-types.ts';
import { pascalCase } from '../words.ts';

/**
 * The options every method and iterator takes, as its JSDoc lists them; the reference, with
 * types and defaults, is docs/options.md.
 */
export const CALL_OPTIONS_DOC = '`signal`, `headers`, `maxWait`, `timeout`, `transportRetries`';

/**
 * Discord's OpenAPI document as Discord publishes it, newest build: a method's JSDoc links it beside
 * its operationId. catalog/discord-openapi/source.json names the same repository and path (a test
 * keeps the two in step).
 */
export const OPENAPI_DOCUMENT_URL = 'https://github.com/discord/discord-api-spec/blob/main/specs/openapi.json';

/** Sample values for examples in the JSDoc, by parameter name. */
export const EXAMPLE_VALUES: Record<string, string> = {
  channel_id: "'81384788765712384'",
  guild_id: "'41771983423143937'",
  message_id: "'334385199974967042'",
  user_id: "'80351110224678912'",
  role_id: "'41771983423143936'",
  emoji_id: "'41771983429993937'",
  overwrite_id: "'80351110224678912'",
  integration_id: "'33590653072239123'",
  webhook_id: "'223704706495545344'",
  code: "'0vCdhLbwjZZTWZLD'",
  emoji: "'🔥'",
  webhook_token: 'webhookToken',
  application_id: "'157730590492196864'",
  interaction_token: 'interactionToken',
};

/** A catalog type name (or union of names) as the generated file refers to it: `v10.Name | v10.Other`. */
export const typeReference = (op: OperationModel, names: string) =>
  names
    .split(' | ')
    .map((name) => `${typesFrom(op)}.${name}`)
    .join(' | ');

/** The discord-api-types module an operation's types come from. */
export const typesFrom = (op: OperationModel): 'v10' | 'v6' => op.source.types?.from ?? 'v10';

/** The default of a method's result type: the catalog's result type, else the document's, else unknown. */
export function resultTypeOf(op: OperationModel, spec: SpecTypeNames): string {
  const result = op.source.types?.result;
  if (result === undefined) return spec.result ?? 'unknown';
  return result === 'undefined' ? 'undefined' : typeReference(op, result);
}

/** `channels.messages.list` → `ChannelsMessagesList`. */
export const pascalOf = (op: OperationModel) => pascalCase(op.source.name);

export const queryTypeName = (op: OperationModel) => `${pascalOf(op)}Query`;

/** A method's path parameters as it declares them: `channelId: Snowflake`, `code: string`. */
export const pathParametersOf = (op: OperationModel): { name: string; type: string }[] =>
  op.parameters.map((p) => ({ name: camelCase(p.name), type: p.kind === 'snowflake' ? 'Snowflake' : 'string' }));

/**
 * What a method's parameters slot holds: the body, else the query, else nothing yet (`NoParams`).
 * A body that came after the query (`bodyIn: 'options'`) goes in the options instead.
 */
export function paramsSlotOf(op: OperationModel): 'body' | 'query' | 'none' {
  if (op.definition.body !== 'none' && !op.definition.bodyInOptions) return 'body';
  return op.source.query ? 'query' : 'none';
}
