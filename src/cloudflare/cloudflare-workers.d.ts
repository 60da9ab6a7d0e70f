/**
 * The part of workerd's `cloudflare:workers` module that tollgate uses, typed here so the project
 * needs no Workers type package (whose globals clash with Node's). A Worker project has
 * `@cloudflare/workers-types` or `wrangler types`, which declare the same module in full.
 */
declare module 'cloudflare:workers' {
  /** The base class of a Durable Object that takes RPC calls. */
  export abstract class DurableObject<Env = unknown> {
    protected ctx: unknown;
    protected env: Env;
    constructor(ctx: unknown, env: Env);
  }
}
