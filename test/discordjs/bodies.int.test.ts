/**
 * The bodies @discordjs/rest sends besides JSON and files, through tollgate/discordjs: a
 * form-encoded OAuth2 body and a Node stream (`passThroughBody`) arrive as plain REST sends them.
 */
import { Readable } from 'node:stream';
import { Routes } from 'discord-api-types/v10';
import { afterEach, describe, expect, it } from 'vitest';
import { restOn, startTapped, type Tapped } from '../support/discordjs.ts';

let tapped: Tapped[] = [];
afterEach(async () => {
  await Promise.all(tapped.map((each) => each.stop()));
  tapped = [];
});

async function send(bridged: boolean, makeBody: () => unknown, contentType: string) {
  const tap = await startTapped();
  tapped.push(tap);
  const { rest, bridged: bridge } = restOn(tap, bridged ? {} : undefined);
  try {
    const result: unknown = await rest.post(Routes.oauth2TokenExchange(), {
      body: makeBody(),
      passThroughBody: true,
      auth: false,
      headers: { 'Content-Type': contentType },
    });
    return { arrived: tap.arrived, result };
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
    await bridge?.close();
  }
}

describe('bodies through tollgate/discordjs', () => {
  it('a form-encoded OAuth2 body, as plain REST sends it', async () => {
    const form = () => new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' });
    const plain = await send(false, form, 'application/x-www-form-urlencoded');
    const bridged = await send(true, form, 'application/x-www-form-urlencoded');
    expect(bridged).toEqual(plain);
    expect(bridged.arrived[0]).toMatchObject({
      method: 'POST',
      path: '/v10/oauth2/token',
      authorization: undefined,
      body: 'grant_type=client_credentials&scope=identify',
    });
  });

  it('a Node stream, streamed as it is', async () => {
    const stream = () => Readable.from([Buffer.from('grant_type=client_credentials'), Buffer.from('&scope=identify')]);
    const plain = await send(false, stream, 'application/x-www-form-urlencoded');
    const bridged = await send(true, stream, 'application/x-www-form-urlencoded');
    expect(bridged).toEqual(plain);
    expect(bridged.arrived[0]!.body).toBe('grant_type=client_credentials&scope=identify');
  });
});
