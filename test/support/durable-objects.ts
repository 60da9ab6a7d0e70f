/**
 * A Durable Object namespace in this process, for `DurableObjectStore`'s tests in Node.js: one
 * `LimitsHost` per object name, and every call copied both ways with structured clone, as RPC
 * copies it (an Error keeps its message, not its class). `down` makes every call fail as an
 * unreachable object does.
 */
import { LimitsHost, type LimitsHostOptions } from '../../src/cloudflare/limits-host.ts';
import type { LimitsCall } from '../../src/cloudflare/protocol.ts';
import type { LimitsNamespace, LimitsStub } from '../../src/cloudflare/store.ts';

export interface FakeNamespace {
  readonly namespace: LimitsNamespace;
  /** The hosts, by object name. */
  readonly objects: Map<string, LimitsHost>;
  /** Every call sent, in order. */
  readonly calls: LimitsCall[];
  down: boolean;
}

export function fakeNamespace(options: LimitsHostOptions = {}): FakeNamespace {
  const objects = new Map<string, LimitsHost>();
  const calls: LimitsCall[] = [];
  const fake: FakeNamespace = {
    objects,
    calls,
    down: false,
    namespace: {
      idFromName: (name: string) => ({ name }),
      get: (id: never): LimitsStub => {
        const { name } = id as { name: string };
        return {
          async decide(call: LimitsCall) {
            if (fake.down) throw new Error('Network connection lost.');
            calls.push(call);
            let host = objects.get(name);
            if (!host) objects.set(name, (host = new LimitsHost(options)));
            return structuredClone(await host.decide(structuredClone(call)));
          },
        };
      },
    },
  };
  return fake;
}
