/**
 * Type tests of tollgate/discordjs: `makeRequest(…)` is taken by discord.js's own option types,
 * as a bot writes it (`new Client({ rest: { makeRequest } })`, `new REST({ makeRequest })`), with
 * no cast, under this project's strict settings.
 */
import { REST, type RESTOptions } from '@discordjs/rest';
import { Client, GatewayIntentBits, type ClientOptions } from 'discord.js';
import { describe, expectTypeOf, it } from 'vitest';
import { makeRequest, type TollgateMakeRequest } from '../../src/discordjs/index.ts';
import { MemoryStore } from '../../src/index.ts';

describe('tollgate/discordjs types', () => {
  it("is a RESTOptions['makeRequest'], in discord.js's Client options and @discordjs/rest's REST", () => {
    const bridged = makeRequest({ store: new MemoryStore(), maxWait: 3000 });
    expectTypeOf(bridged).toExtend<RESTOptions['makeRequest']>();
    const options: ClientOptions = { intents: [GatewayIntentBits.Guilds], rest: { makeRequest: bridged } };
    expectTypeOf(new Client(options)).toEqualTypeOf<Client>();
    expectTypeOf(new REST({ makeRequest: makeRequest() })).toEqualTypeOf<REST>();
    expectTypeOf(bridged.close).toEqualTypeOf<TollgateMakeRequest['close']>();
    // @ts-expect-error: a client's own options are not the relay's.
    makeRequest({ token: 'Bot x' });
  });
});
