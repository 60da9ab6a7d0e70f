/**
 * The messages the reference service makes. A message create (POST /channels/:id/messages)
 * answers the message made from what was sent, in the otherwise sample message of fixtures.ts:
 * its `content`, `embeds`, `attachments` named after the uploaded files (multipart:
 * `payload_json` and `files[n]`, a listed attachment's `filename` first; JSON bodies list theirs)
 * and `nonce`, with a fresh id and the service's time. It fails where the service would: a body
 * that is not JSON (50109), an empty message (50006), content over 2000 characters, more than 10
 * embeds or a nonce over 25 characters (50035, Invalid Form Body), a body over 25 MiB (40005).
 *
 * `enforce_nonce: true` with a `nonce`: when the same caller (Authorization) made a message with
 * that nonce in the channel within the last `NONCE_WINDOW_MS` ("the past few minutes"), the
 * service answers that message and makes none.
 */
import { createHash } from 'node:crypto';
import type { APIAttachment, APIEmbed, APIMessage } from 'discord-api-types/v10';
import type { Clock } from '../clock.ts';

/** A call's answer: its status and body (`undefined` for none). */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** How long a nonce is remembered for `enforce_nonce`. */
export const NONCE_WINDOW_MS = 5 * 60 * 1000;
/** The largest request body the service takes (a larger one is a 413). */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** Ids are ms since this epoch, shifted left 22 bits (the service's own scheme, kept apart from the SDK's). */
const ID_EPOCH_MS = 1_420_070_400_000n;

const INVALID_JSON = { message: 'The request body contains invalid JSON.', code: 50109 };
const EMPTY_MESSAGE = { message: 'Cannot send an empty message', code: 50006 };
const TOO_LARGE = { message: 'Request entity too large', code: 40005 };
const BAD_REQUEST = { message: '400: Bad Request', code: 0 };
const invalidFormBody = (field: string, code: string, message: string) => ({
  message: 'Invalid Form Body',
  code: 50035,
  errors: field === '' ? { _errors: [{ code, message }] } : { [field]: { _errors: [{ code, message }] } },
});

type Payload = Record<string, unknown>;
const isObject = (value: unknown): value is Payload =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyList = (value: unknown) => Array.isArray(value) && value.length > 0;

export class MessageLedger {
  /** Every message made, oldest first (a test counts them; the CLI clears them as it goes). */
  readonly messages: APIMessage[] = [];
  /** Messages with a nonce, by channel, caller and nonce, oldest first. */
  readonly #nonces = new Map<string, { at: number; message: APIMessage }>();
  readonly #clock: Clock;
  #lastId = 0n;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Makes a message in `channelId` from the request body (`undefined`: over `MAX_BODY_BYTES`),
   * or answers the earlier one `enforce_nonce` names, or the service's error.
   */
  async create(
    channelId: string,
    auth: string,
    contentType: string,
    bytes: Uint8Array | undefined,
    sample: APIMessage,
  ): Promise<Answer> {
    if (bytes === undefined) return { status: 413, body: TOO_LARGE };
    const sent = await readMessage(contentType, bytes);
    if ('status' in sent) return sent;
    const { payload, files } = sent;
    const problem = problemOf(payload, files.length);
    if (problem) return { status: 400, body: problem };
    const now = this.#clock.now();
    this.#forgetNonces(now);
    const nonce = (payload.nonce ?? undefined) as string | number | undefined;
    const key = nonce === undefined ? undefined : nonceKey(channelId, auth, nonce);
    const earlier = key === undefined ? undefined : this.#nonces.get(key);
    if (earlier && payload.enforce_nonce === true) return { status: 200, body: earlier.message };

    const id = this.#newId(now);
    const message: APIMessage = {
      ...sample,
      id,
      channel_id: channelId,
      timestamp: new Date(now).toISOString(),
      content: typeof payload.content === 'string' ? payload.content : '',
      embeds: ((payload.embeds as Payload[] | null | undefined) ?? []).map(
        (embed) => ({ type: 'rich', ...embed }) as APIEmbed,
      ),
      attachments: this.#attachments(channelId, payload, files, now),
      ...(nonce !== undefined && { nonce }),
    };
    this.messages.push(message);
    if (key !== undefined) {
      this.#nonces.delete(key);
      this.#nonces.set(key, { at: now, message });
    }
    return { status: 200, body: message };
  }

  /** The uploaded files, each named as its listed attachment says or else as uploaded; without files, the listed ones. */
  #attachments(channelId: string, payload: Payload, files: readonly [string, File][], now: number): APIAttachment[] {
    const listed = Array.isArray(payload.attachments) ? payload.attachments.filter(isObject) : [];
    const made = (filename: string, size: number, type: string, entry: Payload | undefined): APIAttachment => {
      const id = this.#newId(now);
      const path = `${channelId}/${id}/${encodeURIComponent(filename)}`;
      return {
        id,
        filename,
        size,
        url: `https://cdn.discordapp.com/attachments/${path}`,
        proxy_url: `https://media.discordapp.net/attachments/${path}`,
        ...(type !== '' && { content_type: type }),
        ...(typeof entry?.description === 'string' && { description: entry.description }),
      };
    };
    if (files.length === 0) {
      return listed
        .filter((entry) => typeof entry.filename === 'string')
        .map((entry) => made(entry.filename as string, 0, '', entry));
    }
    return files.map(([field, file], index) => {
      const number = /^files\[(\d+)\]$/.exec(field)?.[1] ?? String(index);
      const entry = listed.find((candidate) => String(candidate.id) === number);
      const filename = typeof entry?.filename === 'string' ? entry.filename : file.name;
      return made(filename, file.size, file.type, entry);
    });
  }

  /** A fresh id: the time since the epoch, above every id made before. */
  #newId(now: number): string {
    const since = BigInt(Math.max(0, Math.floor(now))) - ID_EPOCH_MS;
    let id = (since > 0n ? since : 0n) << 22n;
    if (id <= this.#lastId) id = this.#lastId + 1n;
    this.#lastId = id;
    return String(id);
  }

  #forgetNonces(now: number): void {
    for (const [key, { at }] of this.#nonces) {
      if (at > now - NONCE_WINDOW_MS) break;
      this.#nonces.delete(key);
    }
  }
}

/** The key a nonce is remembered by: the caller only as a digest, so no token is kept in clear. */
function nonceKey(channelId: string, auth: string, nonce: string | number): string {
  return `${channelId} ${createHash('sha256').update(auth).digest('hex')} ${String(nonce)}`;
}

/** The body as the service reads it: JSON, or multipart with `payload_json` (or plain fields) and files. */
async function readMessage(
  contentType: string,
  bytes: Uint8Array,
): Promise<{ payload: Payload; files: [string, File][] } | Answer> {
  if (/^multipart\/form-data\b/i.test(contentType)) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
    } catch {
      return { status: 400, body: BAD_REQUEST };
    }
    const files: [string, File][] = [];
    const fields: Payload = {};
    for (const [name, value] of form) {
      if (typeof value === 'string') fields[name] = value;
      else files.push([name, value]);
    }
    if (typeof fields.payload_json !== 'string') return { payload: fields, files };
    const payload = parseJson(fields.payload_json);
    return payload === INVALID ? { status: 400, body: INVALID_JSON } : { payload: payload as Payload, files };
  }
  if (bytes.length === 0) return { payload: {}, files: [] };
  const payload = parseJson(new TextDecoder().decode(bytes));
  return payload === INVALID ? { status: 400, body: INVALID_JSON } : { payload: payload as Payload, files: [] };
}

const INVALID = Symbol('invalid JSON');
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID;
  }
}

/** The service's 400 body for a message it would not make, or undefined. */
function problemOf(payload: unknown, fileCount: number): object | undefined {
  if (!isObject(payload))
    return invalidFormBody('', 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
  const { content, embeds, nonce } = payload;
  if (content !== undefined && content !== null && typeof content !== 'string')
    return invalidFormBody('content', 'BASE_TYPE_STRING', 'Must be a string.');
  if (typeof content === 'string' && content.length > 2000)
    return invalidFormBody('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
  if (embeds !== undefined && embeds !== null && !(Array.isArray(embeds) && embeds.every(isObject)))
    return invalidFormBody('embeds', 'LIST_TYPE_CONVERT', 'Only iterables of objects may be used in a ListType');
  if (Array.isArray(embeds) && embeds.length > 10)
    return invalidFormBody('embeds', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  if (nonce !== undefined && nonce !== null && !(typeof nonce === 'string' || Number.isSafeInteger(nonce)))
    return invalidFormBody('nonce', 'BASE_TYPE_STRING', 'Must be a string or an integer.');
  if (typeof nonce === 'string' && nonce.length > 25)
    return invalidFormBody('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  const forward = isObject(payload.message_reference) && payload.message_reference.type === 1;
  const empty =
    !(typeof content === 'string' && content.trim() !== '') &&
    !nonEmptyList(embeds) &&
    !nonEmptyList(payload.sticker_ids) &&
    !nonEmptyList(payload.components) &&
    !nonEmptyList(payload.attachments) &&
    payload.poll === undefined &&
    fileCount === 0 &&
    !forward;
  return empty ? EMPTY_MESSAGE : undefined;
}
