/**
 * Real Redis deployments for tests, started on free ports and stopped again: a Cluster (3 masters,
 * 3 replicas) and a Sentinel set-up (a master, a replica, one sentinel). Each is `redis-server`
 * daemonized into a temp dir of its own; `stop()` ends exactly the processes it started (by the pids
 * in their pidfiles: `SHUTDOWN NOSAVE`, then SIGKILL) and removes the dir; `kill()` SIGKILLs one of
 * them mid-test (a crash). Every step is bounded in time and fails loudly, with the server's log,
 * when something does not come up. No vitest here: `redis-deployments.ts` wires these into test
 * files.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

const run = promisify(execFile);
const HOST = '127.0.0.1';

export interface Address {
  readonly host: string;
  readonly port: number;
}

export interface StartOptions {
  /** The whole start-up, bounded (ms). Default 30000. */
  readonly timeoutMs?: number;
}

/** A Redis Cluster of 3 masters and 3 replicas on 127.0.0.1. */
export interface RedisClusterProcesses {
  /** Every node, masters first as created (`redis-cli --cluster create` pairs them afterwards). */
  readonly nodes: readonly Address[];
  /** A new ioredis Cluster on the nodes (you close it). */
  client(options?: ClusterOptions): Cluster;
  /** A plain connection to one node (you close it). */
  node(address: Address): Redis;
  /**
   * `CLUSTER FAILOVER` on the replica of the master serving `key`: the replica becomes its master.
   * Resolves once every node names it so (bounded).
   */
  failover(key: string, timeoutMs?: number): Promise<{ readonly from: Address; readonly to: Address }>;
  /** The master serving `key` now (as the first node still up tells it), and the key's slot. */
  master(key: string): Promise<{ readonly address: Address; readonly slot: number }>;
  /** SIGKILL to one node (by the pid it started): a crash, no failover asked. Resolves once it is gone. */
  kill(address: Address): Promise<void>;
  /** Ends the processes and removes their dir; safe to call twice. */
  stop(): Promise<void>;
}

/** A master, a replica of it and one sentinel monitoring them as `masterName`. */
export interface RedisSentinelProcesses {
  readonly masterName: string;
  readonly sentinels: readonly Address[];
  /** The servers (master and replica, in start order; roles change on failover). */
  readonly servers: readonly Address[];
  /** A new ioredis connection through the sentinel (`{ sentinels, name, failoverDetector: true }`; you close it). */
  client(options?: RedisOptions): Redis;
  /** The master's address, as the sentinel tells it now. */
  master(): Promise<Address>;
  /**
   * `SENTINEL FAILOVER`: the replica becomes master. Resolves once the sentinel names the new
   * master and it answers as one (bounded).
   */
  failover(timeoutMs?: number): Promise<Address>;
  /** SIGKILL to one server (by the pid it started): a crash, no failover asked. Resolves once it is gone. */
  kill(address: Address): Promise<void>;
  /** Ends the processes and removes their dir; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Where `freePorts` looks: below the kernel's ephemeral range (32768–60999 by default), which
 * outgoing connections take their local ports from, so a port found free is not taken by another
 * file's connection before the server that is to listen on it starts; each vitest worker
 * (VITEST_POOL_ID) searches a block of its own, so two files running side by side never pick one.
 */
const PORT_BASE = 20_000;
const PORT_BLOCK = 1_500;
const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
let nextInBlock = 0;

/** Whether nothing listens on `port` now (held open until `release`). */
function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, HOST, () => resolve(server));
  });
}

/** Ports nobody listens on now, from this worker's block: all held until every one is known. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    const block = PORT_BASE + ((Number.isFinite(poolId) ? poolId : 1) % 8) * PORT_BLOCK;
    for (let tried = 0; ports.length < count && tried < PORT_BLOCK; tried++) {
      const port = block + (nextInBlock++ % PORT_BLOCK);
      const server = await listenOn(port);
      if (!server) continue;
      servers.push(server);
      ports.push(port);
    }
    if (ports.length < count) throw new Error(`no ${count} free ports in ${block}–${block + PORT_BLOCK - 1}`);
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** Starts a 3-master, 3-replica cluster on free ports; bounded by `timeoutMs`, loud when it fails. */
export async function startRedisCluster(options: StartOptions = {}): Promise<RedisClusterProcesses> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const group = await ProcessGroup.create('cluster');
  try {
    // Two ports a node: its clients' and its cluster bus (port + 10000 may not exist, or be taken).
    const ports = await freePorts(12);
    const nodes: Address[] = [];
    for (let i = 0; i < 6; i++) {
      const port = ports[2 * i]!;
      const dir = await group.dir(`node-${port}`);
      await group.server(
        `cluster node ${port}`,
        dir,
        port,
        [
          ...['--port', String(port), '--bind', HOST, '--dir', dir],
          ...['--cluster-enabled', 'yes', '--cluster-port', String(ports[2 * i + 1]!)],
          ...['--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', '3000'],
          ...serverBasics(dir),
        ],
        deadline,
      );
      nodes.push({ host: HOST, port });
    }
    await Promise.all(nodes.map((node) => group.waitForPing(node, deadline)));
    const addresses = nodes.map(({ host, port }) => `${host}:${port}`);
    await group.exec(
      'redis-cli',
      ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'],
      deadline,
    );
    await Promise.all(
      nodes.map((node) =>
        group.until(`cluster_state:ok on ${node.port}`, deadline, async (redis) => {
          const info = String(await redis(node).cluster('INFO'));
          return /cluster_state:ok/.test(info) && /cluster_known_nodes:6\b/.test(info) ? true : info;
        }),
      ),
    );
    // Each replica attached to its master, so that a failover (or a read) finds it in sync.
    await Promise.all(
      nodes.map((node) =>
        group.until(`${node.port} a master with its replica, or a replica in sync`, deadline, async (redis) => {
          const info = await redis(node).info('replication');
          return /connected_slaves:1\b/.test(info) || /master_link_status:up/.test(info) ? true : info;
        }),
      ),
    );
  } catch (error) {
    await group.stop();
    throw error;
  }
  const nodes = group.addresses;
  return {
    nodes,
    client: (clientOptions) =>
      new Cluster(
        nodes.map(({ host, port }) => ({ host, port })),
        clientOptions,
      ),
    node: ({ host, port }) => new Redis({ host, port, lazyConnect: true, maxRetriesPerRequest: 1 }),
    failover: async (key, timeoutMs = 20_000) => {
      const failoverDeadline = Date.now() + timeoutMs;
      const probe = group.probe(nodes[0]!);
      let from: Address;
      let to: Address;
      let slot: number;
      try {
        slot = Number(await probe.cluster('KEYSLOT', key));
        from = masterOf((await probe.cluster('SLOTS')) as unknown[][], slot);
      } finally {
        probe.disconnect();
      }
      const master = group.probe(from);
      try {
        const id = String(await master.cluster('MYID'));
        const [line] = (await master.call('CLUSTER', 'REPLICAS', id)) as string[];
        const [host, port] = (line?.split(' ')[1] ?? '').split('@')[0]!.split(':');
        if (!host || !port) throw new Error(`the master on ${from.port} has no replica to fail over to`);
        to = { host, port: Number(port) };
      } finally {
        master.disconnect();
      }
      const replica = group.probe(to);
      try {
        await replica.cluster('FAILOVER');
      } finally {
        replica.disconnect();
      }
      await Promise.all(
        nodes.map((node) =>
          group.until(
            `node ${node.port} to name ${to.port} the master of slot ${slot}`,
            failoverDeadline,
            async (redis) => {
              const now = masterOf((await redis(node).cluster('SLOTS')) as unknown[][], slot);
              return now.port === to.port ? true : `master of slot ${slot}: ${now.port}`;
            },
          ),
        ),
      );
      return { from, to };
    },
    master: async (key) => {
      const up = nodes.find((node) => !group.ended(node)) ?? nodes[0]!;
      const probe = group.probe(up);
      try {
        const slot = Number(await probe.cluster('KEYSLOT', key));
        return { address: masterOf((await probe.cluster('SLOTS')) as unknown[][], slot), slot };
      } finally {
        probe.disconnect();
      }
    },
    kill: (address) => group.kill(address),
    stop: () => group.stop(),
  };
}

/** The master serving `slot`, from a CLUSTER SLOTS reply. */
function masterOf(slots: unknown[][], slot: number): Address {
  const range = slots.find(([start, end]) => slot >= Number(start) && slot <= Number(end));
  const [host, port] = (range?.[2] ?? []) as [string?, number?];
  if (!host || port === undefined) throw new Error(`no master serves slot ${slot}: ${JSON.stringify(slots)}`);
  return { host, port: Number(port) };
}

/** Starts a master, a replica and one sentinel (`mymaster`, quorum 1) on free ports; bounded, loud. */
export async function startRedisSentinel(
  options: StartOptions & { readonly downAfterMs?: number } = {},
): Promise<RedisSentinelProcesses> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const masterName = 'mymaster';
  const group = await ProcessGroup.create('sentinel');
  let ports: [number, number, number];
  try {
    ports = (await freePorts(3)) as [number, number, number];
  } catch (error) {
    await group.stop();
    throw error;
  }
  const [masterPort, replicaPort, sentinelPort] = ports;
  const master = { host: HOST, port: masterPort };
  const replica = { host: HOST, port: replicaPort };
  const sentinel = { host: HOST, port: sentinelPort };
  try {
    for (const [name, port, extra] of [
      ['master', masterPort, []],
      ['replica', replicaPort, ['--replicaof', HOST, String(masterPort)]],
    ] as const) {
      const dir = await group.dir(name);
      await group.server(
        `sentinel set-up's ${name}`,
        dir,
        port,
        ['--port', String(port), '--bind', HOST, '--dir', dir, ...extra, ...serverBasics(dir)],
        deadline,
      );
    }
    await group.waitForPing(master, deadline);
    await group.until(`replica ${replicaPort} in sync`, deadline, async (redis) => {
      const info = await redis(replica).info('replication');
      return /master_link_status:up/.test(info) ? true : info;
    });
    const dir = await group.dir('sentinel');
    const conf = join(dir, 'sentinel.conf');
    await writeFile(
      conf,
      [
        `port ${sentinelPort}`,
        `bind ${HOST}`,
        `dir ${dir}`,
        'daemonize yes',
        `pidfile ${join(dir, 'pid')}`,
        `logfile ${join(dir, 'log')}`,
        `sentinel monitor ${masterName} ${HOST} ${masterPort} 1`,
        `sentinel down-after-milliseconds ${masterName} ${options.downAfterMs ?? 1000}`,
        `sentinel failover-timeout ${masterName} 10000`,
        `sentinel parallel-syncs ${masterName} 1`,
        '',
      ].join('\n'),
    );
    await group.server('sentinel', dir, sentinelPort, [conf, '--sentinel'], deadline);
    await group.until(`sentinel ${sentinelPort} knows the master and its replica`, deadline, async (redis) => {
      const address = (await redis(sentinel).call('SENTINEL', 'get-master-addr-by-name', masterName)) as
        string[] | null;
      const replicas = (await redis(sentinel).call('SENTINEL', 'replicas', masterName)) as string[][];
      const up = replicas.filter((fields) => {
        const flags = fields[fields.indexOf('flags') + 1] ?? '';
        return flags === 'slave';
      });
      return address?.[1] === String(masterPort) && up.length === 1 ? true : JSON.stringify({ address, replicas });
    });
  } catch (error) {
    await group.stop();
    throw error;
  }
  const masterAddress = async (): Promise<Address> => {
    const probe = group.probe(sentinel);
    try {
      const [host, port] = (await probe.call('SENTINEL', 'get-master-addr-by-name', masterName)) as [string, string];
      return { host, port: Number(port) };
    } finally {
      probe.disconnect();
    }
  };
  return {
    masterName,
    sentinels: [sentinel],
    servers: [master, replica],
    // failoverDetector: moves to the new master as soon as the sentinel announces it (+switch-master);
    // without it, a connection stays on a demoted master until Sentinel converts it (~10 s).
    client: (clientOptions) =>
      new Redis({ sentinels: [sentinel], name: masterName, failoverDetector: true, ...clientOptions }),
    master: masterAddress,
    failover: async (timeoutMs = 20_000) => {
      const failoverDeadline = Date.now() + timeoutMs;
      const before = await masterAddress();
      const probe = group.probe(sentinel);
      try {
        await probe.call('SENTINEL', 'FAILOVER', masterName);
      } finally {
        probe.disconnect();
      }
      let after: Address = before;
      await group.until('the failover', failoverDeadline, async (redis) => {
        after = await masterAddress();
        if (after.port === before.port) return `the sentinel still names ${before.port}`;
        const info = await redis(after).info('replication');
        return /role:master/.test(info) ? true : info;
      });
      return after;
    },
    kill: (address) => group.kill(address),
    stop: () => group.stop(),
  };
}

/** What every test server shares: no persistence, daemonized, a pidfile and a log in its dir. */
function serverBasics(dir: string): string[] {
  return [
    ...['--save', '', '--appendonly', 'no', '--daemonize', 'yes'],
    // A replica's first sync starts at once (not 5 s later, in case more replicas come).
    ...['--repl-diskless-sync-delay', '0'],
    ...['--pidfile', join(dir, 'pid'), '--logfile', join(dir, 'log')],
  ];
}

interface Started {
  readonly name: string;
  readonly dir: string;
  readonly address: Address;
  pid?: number;
}

/** Still running at exit (a crashed test run): killed then, so that no daemon outlives the run. */
const running = new Map<number, number>();
/** Temp dirs not removed yet: removed at exit too. */
const roots = new Set<string>();
let exitHookInstalled = false;

/** The processes of one deployment, their temp dir, and bounded waiting on them. */
class ProcessGroup {
  readonly #root: string;
  readonly #started: Started[] = [];
  #stopped = false;

  private constructor(root: string) {
    this.#root = root;
  }

  static async create(kind: string): Promise<ProcessGroup> {
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => {
        for (const [pid, port] of running) {
          try {
            if (isOurs(pid, port)) process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
        for (const root of roots) rmSync(root, { recursive: true, force: true });
      });
    }
    const root = await mkdtemp(join(tmpdir(), `tollgate-redis-${kind}-`));
    roots.add(root);
    return new ProcessGroup(root);
  }

  get addresses(): Address[] {
    return this.#started.map((started) => started.address);
  }

  async dir(name: string): Promise<string> {
    const path = join(this.#root, name);
    await mkdir(path, { recursive: true });
    return path;
  }

  /** Starts one daemonized redis-server (or sentinel) and waits for its pidfile. */
  async server(name: string, dir: string, port: number, args: string[], deadline: number): Promise<void> {
    const started: Started = { name, dir, address: { host: HOST, port } };
    this.#started.push(started);
    await this.exec('redis-server', args, deadline);
    await this.until(`${name}'s pidfile`, deadline, async () => {
      const pid = Number((await readFile(join(dir, 'pid'), 'utf8').catch(() => '')).trim());
      if (!Number.isInteger(pid) || pid <= 0) return 'no pidfile yet';
      started.pid = pid;
      running.set(pid, port);
      return true;
    });
  }

  /** Runs a command to its end, bounded by the deadline; its output is in the error when it fails. */
  async exec(command: string, args: string[], deadline: number): Promise<void> {
    try {
      await run(command, args, { timeout: Math.max(1, deadline - Date.now()), killSignal: 'SIGKILL' });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(
        `${command} ${args.join(' ')} failed: ${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}${await this.#logs()}`,
        { cause: error },
      );
    }
  }

  async waitForPing(address: Address, deadline: number): Promise<void> {
    await this.until(`redis-server on ${address.port} answering PING`, deadline, async (redis) =>
      (await redis(address).ping()) === 'PONG' ? true : 'no PONG',
    );
  }

  /** A connection for a probe: no retries, so that a probe never outlives its deadline. */
  probe(address: Address): Redis {
    const redis = new Redis({
      host: address.host,
      port: address.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1000,
      commandTimeout: 2000,
    });
    redis.on('error', () => {});
    return redis;
  }

  /**
   * Polls `check` every 50 ms until it answers true; before the deadline, or it throws with what the
   * last try saw and the servers' logs. `check` gets short-lived connections, closed after each try.
   */
  async until(
    what: string,
    deadline: number,
    check: (redis: (address: Address) => Redis) => Promise<true | string>,
  ): Promise<void> {
    let last = 'not tried';
    while (Date.now() < deadline) {
      const opened: Redis[] = [];
      try {
        const answer = await check((address) => {
          const redis = this.probe(address);
          opened.push(redis);
          return redis;
        });
        if (answer === true) return;
        last = answer;
      } catch (error) {
        last = String((error as Error).message ?? error);
      } finally {
        for (const redis of opened) redis.disconnect();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Timed out waiting for ${what}; last saw: ${last.slice(0, 500)}${await this.#logs()}`);
  }

  /** Whether the process started on this address has ended (killed, or crashed). */
  ended(address: Address): boolean {
    const started = this.#started.find((one) => one.address.port === address.port);
    return started?.pid !== undefined && !alive(started.pid);
  }

  /** SIGKILL to the process it started on `address` (only if that pid is still our redis-server); bounded. */
  async kill(address: Address): Promise<void> {
    const started = this.#started.find((one) => one.address.port === address.port);
    const pid = started?.pid;
    if (pid === undefined) throw new Error(`no process of this deployment listens on ${address.port}`);
    if (!alive(pid)) return;
    if (!isOurs(pid, address.port)) throw new Error(`pid ${pid} is no longer the redis-server on ${address.port}`);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    if (alive(pid)) throw new Error(`redis-server ${pid} on ${address.port} still runs 2 s after SIGKILL`);
    running.delete(pid);
  }

  /** SHUTDOWN NOSAVE to each process it started, SIGKILL to any still there after 3 s; then the dir goes. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await Promise.all(
      this.#started.map(async (started) => {
        const { pid } = started;
        if (pid === undefined || !alive(pid)) return;
        const probe = this.probe(started.address);
        await probe.call('SHUTDOWN', 'NOSAVE').catch(() => {});
        probe.disconnect();
        for (let i = 0; i < 60 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
        if (alive(pid) && isOurs(pid, started.address.port)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone in between
          }
          for (let i = 0; i < 40 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        running.delete(pid);
      }),
    );
    await rm(this.#root, { recursive: true, force: true });
    roots.delete(this.#root);
  }

  /** The tail of every server's log, for an error message. */
  async #logs(): Promise<string> {
    const parts: string[] = [];
    for (const { name, dir } of this.#started) {
      const log = await readFile(join(dir, 'log'), 'utf8').catch(() => '(no log)');
      parts.push(`--- ${name} (${dir}/log) ---\n${log.split('\n').slice(-15).join('\n')}`);
    }
    return parts.length > 0 ? `\n${parts.join('\n')}` : '';
  }
}

/** Whether the process runs (a zombie waiting for init to reap it has ended: Redis exited). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // No /proc (not Linux), or no such process.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is still the redis-server we started on `port` (not a process that took its pid since). */
function isOurs(pid: number, port: number): boolean {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /redis/.test(title) && title.includes(`:${port}`);
  } catch {
    return alive(pid); // no /proc: the pidfile's pid is all there is to go by
  }
}

/**
 * A bare redis-server on 127.0.0.1:`port`, keeping nothing on disk: a server a test may kill and
 * start again on the same port (a restart under load). The caller kills it when done.
 */
export function startRedisServerOn(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

/** Resolves once redis-server on `port` answers PING (bounded: 5 s). */
export async function waitForRedis(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const probe = new Redis({
      port,
      host: HOST,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => {}); // a refused connection is the answer being waited out
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
  throw new Error(`redis-server on port ${port} did not start`);
}
