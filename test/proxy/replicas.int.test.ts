/**
 * `tollgate proxy` as users start it: its command line, and two replicas as child processes on
 * one Redis in front of the reference service, driven by plain fetch clients holding two tokens.
 * Real processes, real time: what is asserted (no 429, exit codes, log lines) does not depend on
 * the machine's speed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { runToExit } from '../support/command-line.ts';
import { ReferenceService } from '../../src/testing/index.ts';
import { REDIS_URL, connectedStore, testPrefix } from '../support/redis.ts';
import { freePorts, startRedisServerOn, waitForRedis } from '../support/redis-processes.ts';

const root = join(import.meta.dirname, '..', '..');
const TOKENS = ['Bot ODAzNTExMTAyMjQ2Nzg5MTI.replica.first-token', 'Bot MTc1OTI4ODQ3Mjk5MTE3MDYz.replica.second-token'];
const CHANNELS = ['81384788765712384', '81384788765712385', '81384788765712386'];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Replica {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

/** `tollgate proxy` with `args`: resolves once it prints its listening line. */
async function startReplica(args: readonly string[]): Promise<Replica> {
  const child = spawn(process.execPath, ['src/proxy/cli.ts', 'proxy', '--port', '0', ...args], { cwd: root });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  const line = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  const match = /^tollgate proxy listening on (http:\/\/\S+)$/.exec(String(line.value));
  if (!match) throw new Error(`no listening line: ${String(line.value)} ${stderr}`);
  return { child, url: match[1]!, stderr: () => stderr, exited };
}

/** The command line run to its end: exit code and what it printed. */
const run = (args: readonly string[]) => runToExit('src/proxy/cli.ts', args);

describe('tollgate proxy, the command line', () => {
  it('a bad flag: one line on stderr, nothing on stdout, exit 2 (every bad input: command-line.test.ts)', async () => {
    for (const [args, message] of [
      [['proxy', '--port', 'eighty'], /^tollgate: --port must be a whole number/],
      [['proxy', '--secret', 'short'], /^tollgate: secret must be at least 16 characters/],
      [['proxy', '--global-limit', '50', '--global-limit', '60'], /^tollgate: --global-limit gives the default twice/],
      [['proxy', '--global-limit', '12=500'], /^tollgate: botGlobalLimits names "12", which is not a bot id/],
    ] as const) {
      const { code, stdout, stderr } = await run(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(message);
    }
  });

  it('--help prints the flags and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: tollgate proxy');
  });

  it('reads its settings from the environment too, and drains on SIGTERM with exit 0', async () => {
    const service = await new ReferenceService({ dialect: 'discord' }).start();
    cleanups.push(() => service.stop());
    const child = spawn(process.execPath, ['src/proxy/cli.ts', 'proxy'], {
      cwd: root,
      env: { ...process.env, TOLLGATE_PROXY_PORT: '0', TOLLGATE_PROXY_UPSTREAM: new URL(service.baseUrl).origin },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const line = String((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
    expect(line).toMatch(/^tollgate proxy listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.split(' ').at(-1)!;
    expect(
      (await fetch(`${url}/api/v10/channels/${CHANNELS[0]}`, { headers: { authorization: TOKENS[0]! } })).status,
    ).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
  /** `npx tollgate proxy` from this checkout, as a user's shell runs it (no npm_* variables of `npm test`). */
  async function startWithNpx(
    shell: string,
  ): Promise<{ url: string; exited: Promise<number | null>; pid: number; stderr: () => string }> {
    const service = await new ReferenceService({ dialect: 'discord' }).start();
    cleanups.push(() => service.stop());
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_')));
    const args = ['--no-install', `--script-shell=${shell}`, 'tollgate', 'proxy', '--port', '0'];
    const child = spawn('npx', [...args, '--upstream', new URL(service.baseUrl).origin], {
      cwd: root,
      env: { ...env, PATH: `${join(root, 'node_modules', '.bin')}:${env.PATH ?? ''}` },
      detached: true, // a group of its own, so the cleanup reaches the proxy whatever happens
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    cleanups.push(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    });
    const line = String((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
    expect(line, `no listening line (is dist/ built? npm run build)\n${stderr}`).toMatch(
      /^tollgate proxy listening on http:\/\/127\.0\.0\.1:\d+$/,
    );
    const url = line.split(' ').at(-1)!;
    expect(
      (await fetch(`${url}/api/v10/channels/${CHANNELS[0]}`, { headers: { authorization: TOKENS[0]! } })).status,
    ).toBe(200);
    return { url, exited, pid: child.pid!, stderr: () => stderr };
  }

  /** Whether anything still answers at `url`, asked every 100 ms for up to 10 s. */
  async function stopsServing(url: string): Promise<boolean> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const up = await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      );
      if (!up) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  // npx's first run from a checkout installs it into npm's npx cache (about 15 s here).
  it(
    'npx tollgate proxy, as the README starts it (npm install builds dist/): SIGTERM to npx drains it, exit 0',
    { timeout: 90_000 },
    async () => {
      // This checkout's .npmrc runs bins through bash, which hands npx's signal to the proxy.
      const { url, exited, pid } = await startWithNpx('/bin/bash');
      process.kill(pid, 'SIGTERM');
      expect(await exited).toBe(0);
      expect(await stopsServing(url)).toBe(true);
    },
  );

  it(
    'under npx with dash, whose shell dies of the SIGTERM: the orphaned proxy notices and drains',
    { timeout: 90_000 },
    async () => {
      const { url, exited, pid, stderr } = await startWithNpx('/bin/sh');
      process.kill(pid, 'SIGTERM');
      await exited;
      expect(await stopsServing(url)).toBe(true);
      // It went by noticing, not by a signal that reached it.
      expect(stderr()).toContain('npx, which started the proxy, is gone: draining');
    },
  );
});

describe('tollgate proxy, shutting down', () => {
  it(
    'SIGTERM while busy: the request waiting for its window is served, then it exits 0',
    { timeout: 30_000 },
    async () => {
      const service = await new ReferenceService({
        dialect: 'discord',
        defaultLimit: { limit: 1, windowMs: 1500 },
      }).start();
      cleanups.push(() => service.stop());
      const replica = await startReplica(['--upstream', new URL(service.baseUrl).origin]);
      const send = (content: string) =>
        fetch(`${replica.url}/api/v10/channels/${CHANNELS[0]}/messages`, {
          method: 'POST',
          headers: { authorization: TOKENS[0]!, 'content-type': 'application/json' },
          body: JSON.stringify({ content }),
        });
      expect((await send('first')).status).toBe(200);
      const waiting = send('second');
      await new Promise((resolve) => setTimeout(resolve, 200));
      replica.child.kill('SIGTERM');
      expect((await waiting).status).toBe(200);
      expect(await replica.exited).toBe(0);
      expect(service.messages.map((message) => message.content)).toEqual(['first', 'second']);
    },
  );
});

describe('two replicas on one Redis', () => {
  it(
    'two tokens bursting through both into shared channels: zero 429s, and no token in any log line',
    { timeout: 60_000 },
    async () => {
      // Redis must be there: the test fails, never skips, without it.
      await (await connectedStore('proxy-replicas-check')).close();
      const service = await new ReferenceService({
        dialect: 'discord',
        defaultLimit: { limit: 5, windowMs: 1000 },
        global: { limit: 50, windowMs: 1000 },
      }).start();
      cleanups.push(() => service.stop());
      const prefix = testPrefix('proxy-replicas');
      const args = [
        '--upstream',
        new URL(service.baseUrl).origin,
        '--redis',
        REDIS_URL,
        '--prefix',
        prefix,
        '--log-level',
        'debug',
      ];
      const replicas = [await startReplica(args), await startReplica(args)];
      const calls = TOKENS.flatMap((token, t) =>
        Array.from({ length: 24 }, (_, i) =>
          fetch(`${replicas[(i + t) % 2]!.url}/api/v10/channels/${CHANNELS[i % CHANNELS.length]}/messages`, {
            method: 'POST',
            headers: { authorization: token, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `${t}-${i}` }),
          }),
        ),
      );
      const answers = await Promise.all(calls);
      expect(answers.map((answer) => answer.status)).toEqual(calls.map(() => 200));
      expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
      expect(service.messages).toHaveLength(48);
      for (const replica of replicas) {
        replica.child.kill('SIGTERM');
        expect(await replica.exited).toBe(0);
        const logs = replica.stderr();
        expect(logs).toContain('"msg":"request"');
        for (const token of TOKENS) expect(logs).not.toContain(token.split(' ')[1]!.split('.').slice(1).join('.'));
      }
    },
  );

  it(
    'Redis restarted under load: both keep serving on their fallback limits, /readyz says so, and they share again',
    { timeout: 60_000 },
    async () => {
      const port = (await freePorts(1))[0]!;
      let redis = startRedisServerOn(port);
      cleanups.push(() => void redis.kill('SIGKILL'));
      await waitForRedis(port);
      const service = await new ReferenceService({
        dialect: 'discord',
        defaultLimit: { limit: 50, windowMs: 1000 },
      }).start();
      cleanups.push(() => service.stop());
      const args = [
        '--upstream',
        new URL(service.baseUrl).origin,
        '--redis',
        `redis://127.0.0.1:${port}`,
        '--prefix',
        testPrefix('proxy-restart'),
      ];
      const replicas = [await startReplica(args), await startReplica(args)];
      const ready = async () => Promise.all(replicas.map(async ({ url }) => (await fetch(`${url}/readyz`)).status));
      const statuses: number[] = [];
      let next = 0;
      const send = async (count: number) => {
        for (let i = 0; i < count; i++, next++) {
          const answer = await fetch(
            `${replicas[next % 2]!.url}/api/v10/channels/${CHANNELS[next % CHANNELS.length]}`,
            {
              headers: { authorization: TOKENS[0]! },
            },
          );
          statuses.push(answer.status);
          await answer.arrayBuffer();
        }
      };
      await send(10);
      expect(await ready()).toEqual([200, 200]);
      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.once('exit', resolve));
      await send(10);
      expect(await ready()).toEqual([503, 503]);
      redis = startRedisServerOn(port);
      await waitForRedis(port);
      for (let attempt = 0; attempt < 100 && (await ready()).some((status) => status !== 200); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await ready()).toEqual([200, 200]);
      await send(10);
      expect(statuses).toEqual(Array.from({ length: 30 }, () => 200));
      expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
    },
  );
});
