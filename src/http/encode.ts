/**
 * How a call's body, query and audit-log reason go on the wire, each checked first (nothing is
 * sent for bad input). Bodies follow the catalog's `encoding`:
 * - `json`: as it is;
 * - `json+files`: a JSON body with `files: [{ name, data }]` becomes the service's multipart form —
 *   the rest of the body as `payload_json`, each file as `files[n]`, and each listed in the
 *   payload's `attachments` (`{ id: n, filename }`) unless the caller listed them already;
 * - `form-data`: one part per field, a `{ name, data }` field as a file;
 * - `urlencoded`: `application/x-www-form-urlencoded`, one pair per field.
 */
import { TollgateArgumentError } from '../errors.ts';
import type { OperationDefinition } from '../contracts/catalog.ts';
import type { FileUpload, QueryInput } from '../sdk.ts';

/** The service takes at most 10 files per message. */
export const MAX_FILES = 10;

export function toMultipart(
  label: string,
  body: Readonly<Record<string, unknown>>,
  attachmentsIn: 'data' | 'message' | null = null,
): FormData | undefined {
  // Most calls carry no files: no copy of their body.
  if (body.files === undefined) return undefined;
  const { files, ...json } = body;
  if (!Array.isArray(files) || files.length === 0 || files.length > MAX_FILES) {
    throw new TollgateArgumentError(`${label}: files must be an array of 1 to ${MAX_FILES} { name, data } entries`);
  }
  const uploads = files.map((file: unknown, index) => checkFile(`${label}: files[${index}]`, file));
  const form = new FormData();
  // The message the files belong to: the body, or its `data` (interaction response) or `message` (forum post).
  const message = attachmentsIn === null ? json : json[attachmentsIn];
  if (message !== undefined && (typeof message !== 'object' || message === null || Array.isArray(message))) {
    throw new TollgateArgumentError(`${label}: body.${attachmentsIn} must be an object to attach files to`);
  }
  const fields = (message ?? {}) as Record<string, unknown>;
  const withAttachments = {
    ...fields,
    attachments: fields.attachments ?? uploads.map((file, id) => ({ id, filename: file.name })),
  };
  const payload = attachmentsIn === null ? withAttachments : { ...json, [attachmentsIn]: withAttachments };
  form.set('payload_json', jsonText(label, payload));
  uploads.forEach((file, index) => form.set(`files[${index}]`, toBlob(file), file.name));
  return form;
}

/** A `form-data` body: scalar fields as text parts, `{ name, data }` fields as files. */
export function toFormFields(label: string, body: Readonly<Record<string, unknown>>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (isScalar(value)) form.set(key, String(value));
    else if (typeof value === 'object' && value !== null && 'data' in value) {
      const file = checkFile(`${label}: body.${key}`, value);
      form.set(key, toBlob(file), file.name);
    } else {
      throw new TollgateArgumentError(
        `${label}: body.${key} must be a string, number, bigint, boolean or a file { name, data }`,
      );
    }
  }
  return form;
}

/** A `urlencoded` body: every field a scalar. */
export function toUrlEncoded(label: string, body: Readonly<Record<string, unknown>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (!isScalar(value)) {
      throw new TollgateArgumentError(`${label}: body.${key} must be a string, number, bigint or boolean`);
    }
    params.append(key, String(value));
  }
  return params;
}

export const isScalar = (value: unknown): value is string | number | bigint | boolean =>
  ['string', 'number', 'bigint', 'boolean'].includes(typeof value);

function checkFile(where: string, file: unknown): FileUpload {
  const candidate = file as Partial<FileUpload> | null;
  if (typeof candidate !== 'object' || candidate === null)
    throw new TollgateArgumentError(`${where} must be { name, data }`);
  if (typeof candidate.name !== 'string' || candidate.name === '' || /[/\\\r\n]/.test(candidate.name)) {
    throw new TollgateArgumentError(`${where}.name must be a file name (no slashes or line breaks)`);
  }
  const { data } = candidate;
  if (!(data instanceof Blob || data instanceof ArrayBuffer || ArrayBuffer.isView(data) || typeof data === 'string')) {
    throw new TollgateArgumentError(`${where}.data must be a Blob, ArrayBuffer, typed array or string`);
  }
  if (candidate.contentType !== undefined && typeof candidate.contentType !== 'string') {
    throw new TollgateArgumentError(`${where}.contentType must be a string`);
  }
  return candidate as FileUpload;
}

function toBlob({ data, contentType }: FileUpload): Blob {
  if (data instanceof Blob && contentType === undefined) return data;
  const type = contentType ?? (data instanceof Blob ? data.type : 'application/octet-stream');
  return new Blob([data as BlobPart], { type });
}

/** A typed call's body as ky takes it, by the operation's `encoding`. */
export function encodeBody(
  label: string,
  operation: OperationDefinition,
  body: unknown,
): { json?: unknown; body?: BodyInit } {
  if (operation.body === 'none') {
    if (body !== undefined) throw new TollgateArgumentError(`${label} takes no body`);
    return {};
  }
  if (body === undefined) {
    if (operation.body === 'required') throw new TollgateArgumentError(`${label} needs a body`);
    return {};
  }
  const { encoding } = operation;
  if (body instanceof FormData) {
    if (encoding === 'json' || encoding === 'urlencoded') {
      throw new TollgateArgumentError(
        `${label} takes a ${encoding === 'json' ? 'JSON' : 'form-encoded'} body, not FormData`,
      );
    }
    return { body };
  }
  if (typeof body !== 'object' || body === null) {
    throw new TollgateArgumentError(
      `${label}: body must be an object or an array, got ${body === null ? 'null' : typeof body}`,
    );
  }
  if (encoding === 'json') return { json: checkJson(label, body) };
  if (Array.isArray(body)) {
    if (encoding === 'json+files') return { json: checkJson(label, body) };
    throw new TollgateArgumentError(`${label}: body must be an object of fields, not an array`);
  }
  const fields = body as Record<string, unknown>;
  if (encoding === 'form-data') return { body: toFormFields(label, fields) };
  if (encoding === 'urlencoded') return { body: toUrlEncoded(label, fields) };
  const form = toMultipart(label, fields, operation.attachmentsIn);
  return form ? { body: form } : { json: checkJson(label, body) };
}

/** A JSON body, checked: one that cannot be serialized (a cycle, a bigint) is refused unsent, naming the field. */
export function checkJson<T>(label: string, body: T): T {
  jsonText(label, body);
  return body;
}

/** `JSON.stringify`, with its failure turned into a TollgateArgumentError that names the field. */
function jsonText(label: string, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    const found = unserializable(body, 'body', []);
    throw new TollgateArgumentError(
      `${label}: ${found?.path ?? 'body'} cannot be sent as JSON: ${found?.why ?? 'JSON.stringify failed'}`,
    );
  }
}

/** Where in `value` JSON.stringify fails, and why (ancestors: the objects above it, for cycles). */
function unserializable(value: unknown, path: string, ancestors: object[]): { path: string; why: string } | undefined {
  if (typeof value === 'bigint') return { path, why: 'it is a bigint (send it as a string)' };
  if (typeof value !== 'object' || value === null) return undefined;
  if (ancestors.includes(value)) return { path, why: 'it contains itself (a cycle)' };
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    let shown: unknown;
    try {
      shown = toJSON.call(value);
    } catch {
      return { path, why: 'its toJSON() throws' };
    }
    if (shown !== value) return unserializable(shown, path, ancestors);
  }
  ancestors.push(value);
  try {
    for (const [key, field] of Object.entries(value)) {
      const found = unserializable(field, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, ancestors);
      if (found) return found;
    }
  } finally {
    ancestors.pop();
  }
  return undefined;
}

/** Option names whose values can never be a query's: found in a query, they were put a place too early. */
const MISPLACED_OPTIONS: ReadonlySet<string> = new Set(['signal', 'headers']);

/** A query: scalars, and lists that repeat their parameter. */
export function toSearchParams(query: QueryInput | undefined): URLSearchParams | undefined {
  if (query === undefined) return undefined;
  if (typeof query !== 'object' || query === null) throw new TollgateArgumentError('query must be an object');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isScalar(item)) {
        // The usual cause: options passed where a method takes its parameters (docs/migrating.md).
        const hint = MISPLACED_OPTIONS.has(key) ? `; "${key}" is an option: options come after the parameters` : '';
        throw new TollgateArgumentError(
          `query parameter "${key}" must be a string, number, bigint or boolean, or a list of them${hint}`,
        );
      }
      params.append(key, String(item));
    }
  }
  return params;
}

/** The call's headers with the audit-log reason (URL-encoded, as the service reads it). */
export function withReason(headers: HeadersInit | undefined, reason: string | undefined): HeadersInit | undefined {
  if (reason === undefined) return headers;
  const merged = new Headers(headers);
  merged.set('x-audit-log-reason', encodeURIComponent(reason));
  return merged;
}
