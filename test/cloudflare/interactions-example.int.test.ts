/**
 * examples/cloudflare-interactions runs: bundled as wrangler bundles it, configured from its own
 * wrangler.json (main, compatibility date, vars, Durable Object bindings), in miniflare, with no
 * compatibility flag. Interactions are signed here with an Ed25519 key the test makes; the
 * follow-up goes to the reference service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteractionResponseType, InteractionType } from 'discord-api-types/v10';
import { ReferenceService } from '../../src/testing/index.ts';
import { bundleWorker } from '../support/workers.ts';
import { APPLICATION_ID as APPLICATION, COMMAND, eventually } from '../support/interactions.ts';

const example = join(import.meta.dirname, '..', '..', 'examples', 'cloudflare-interactions');

interface WranglerConfig {
  readonly main: string;
  readonly compatibility_date: string;
  readonly compatibility_flags?: readonly string[];
  readonly vars: Readonly<Record<string, string>>;
  readonly durable_objects: { readonly bindings: readonly { name: string; class_name: string }[] };
}
const config = JSON.parse(readFileSync(join(example, 'wrangler.json'), 'utf8')) as WranglerConfig;

const hex = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('hex');

let service: ReferenceService;
let miniflare: Miniflare;
let keys: CryptoKeyPair;

/** POSTs `interaction` as the service does: signed over timestamp + body (or with `signature`). */
async function post(interaction: unknown, signature?: string): Promise<Response> {
  const body = JSON.stringify(interaction);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signed = await crypto.subtle.sign('Ed25519', keys.privateKey, new TextEncoder().encode(timestamp + body));
  const response = await miniflare.dispatchFetch('http://interactions.example/', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': signature ?? hex(signed),
      'x-signature-timestamp': timestamp,
    },
    body,
  });
  return response as unknown as Response;
}

beforeAll(async () => {
  service = await new ReferenceService().start();
  keys = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
  const { code } = await bundleWorker(join(example, config.main));
  miniflare = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: [...(config.compatibility_flags ?? [])],
    bindings: {
      ...config.vars,
      DISCORD_APPLICATION_ID: APPLICATION,
      DISCORD_PUBLIC_KEY: hex(await crypto.subtle.exportKey('raw', keys.publicKey)),
      DISCORD_API_BASE: service.baseUrl,
    },
    durableObjects: Object.fromEntries(
      config.durable_objects.bindings.map((binding) => [binding.name, binding.class_name]),
    ),
  });
});
afterAll(async () => {
  await miniflare?.dispose();
  await service?.stop();
});

describe('examples/cloudflare-interactions', () => {
  it('declares no compatibility flag and binds TollgateLimits', () => {
    expect(config.compatibility_flags ?? []).toEqual([]);
    expect(config.durable_objects.bindings).toEqual([{ name: 'TOLLGATE_LIMITS', class_name: 'TollgateLimits' }]);
  });

  it('answers a signed PING with a PONG', async () => {
    const response = await post({ type: InteractionType.Ping, id: '1', application_id: APPLICATION });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ type: InteractionResponseType.Pong });
  });

  it('refuses a bad signature with a 401, and an interaction signed by another key', async () => {
    expect((await post({ type: InteractionType.Ping }, '00'.repeat(64))).status).toBe(401);
    expect((await post({ type: InteractionType.Ping }, 'not hex')).status).toBe(401);
    const other = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
    const body = JSON.stringify({ type: InteractionType.Ping });
    const signature = await crypto.subtle.sign('Ed25519', other.privateKey, new TextEncoder().encode(`1${body}`));
    const response = await miniflare.dispatchFetch('http://interactions.example/', {
      method: 'POST',
      headers: { 'x-signature-ed25519': hex(signature), 'x-signature-timestamp': '1' },
      body,
    });
    expect(response.status).toBe(401);
  });

  it('defers a command, then edits the original response through tollgate (no token, the webhook lane)', async () => {
    const response = await post(COMMAND);
    expect(await response.json()).toEqual({ type: InteractionResponseType.DeferredChannelMessageWithSource });
    // The edit goes on after the answer (waitUntil): wait for it, boundedly.
    await eventually(() => service.requests.length > 0);
    expect(service.requests).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        routeKey: 'PATCH /webhooks/:id/:token/messages/@original',
        status: 200,
      }),
    ]);
  });
});
