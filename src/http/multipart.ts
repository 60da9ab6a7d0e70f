/**
 * Bodies that are not plain JSON (the catalog's `encoding`):
 * - `json+files`: a JSON body with `files: [{ name, data }]` becomes the service's multipart form —
 *   the rest of the body as `payload_json`, each file as `files[n]`, and each listed in the
 *   payload's `attachments` (`{ id: n, filename }`) unless the caller listed them already;
 * - `form-data`: one part per field, a `{ name, data }` field as a file;
 * - `urlencoded`: `application/x-www-form-urlencoded`, one pair per field.
 */
import { TollgateArgumentError } from '../errors.ts';
import type { FileUpload } from '../sdk.ts';

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
  form.set('payload_json', JSON.stringify(payload));
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
