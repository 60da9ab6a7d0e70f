/**
 * What the proxy writes back (src/proxy/answers.ts), into a response that records it: the
 * service's answer as it came, less one hop's headers, and the proxy's own answers.
 */
import { describe, expect, it } from 'vitest';
import { generated, json, pass, PROXY_ANSWER } from '../../src/proxy/answers.ts';
import { asResponse, recorded } from '../support/recorded-response.ts';

describe('pass: the service answer, as it came', () => {
  it('keeps its status, body and every header, each Set-Cookie apart, less one hop', async () => {
    const headers = new Headers([
      ['content-type', 'application/json'],
      ['x-ratelimit-scope', 'shared'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['keep-alive', 'timeout=5'],
    ]);
    const response = recorded();
    const outcome = await pass(
      asResponse(response),
      new Response('{"id":"1"}', { status: 201, headers }),
      'POST',
      true,
    );
    expect(outcome).toEqual({ status: 201, generated: false, scope: 'shared' });
    expect(response.status).toBe(201);
    expect(response.headers).toEqual({
      'content-type': 'application/json',
      'x-ratelimit-scope': 'shared',
      'set-cookie': ['a=1', 'b=2'],
    });
    expect([response.body, response.ended]).toEqual(['{"id":"1"}', true]);
  });

  it('a body fetch decoded goes without its encoding and length; a transport that does not decode keeps them', async () => {
    const compressed = () =>
      new Response(new TextEncoder().encode('plain'), {
        headers: { 'content-encoding': 'gzip', 'content-length': '5', 'x-kept': '1' },
      });
    const decoded = recorded();
    await pass(asResponse(decoded), compressed(), 'GET', true);
    expect(decoded.headers).toEqual({ 'x-kept': '1' });
    const asItCame = recorded();
    await pass(asResponse(asItCame), compressed(), 'GET', false);
    expect(asItCame.headers).toEqual({ 'content-encoding': 'gzip', 'content-length': '5', 'x-kept': '1' });
  });

  it('a body fetch did not have to decode keeps its length', async () => {
    const response = recorded();
    await pass(
      asResponse(response),
      new Response(new TextEncoder().encode('plain'), { headers: { 'content-length': '5' } }),
      'GET',
      true,
    );
    expect(response.headers).toEqual({ 'content-length': '5' });
  });

  it('marks an answer the relay made, and writes no body for HEAD', async () => {
    const made = new Response(null, { status: 429, headers: { 'x-tollgate-generated': 'RATE_LIMIT_WAIT' } });
    const response = recorded();
    expect(await pass(asResponse(response), made, 'HEAD', true)).toEqual({
      status: 429,
      generated: true,
      scope: undefined,
    });
    expect(response.headers).toEqual({ 'x-tollgate-generated': 'RATE_LIMIT_WAIT', 'x-tollgate-proxy': 'generated' });
    const head = recorded();
    await pass(asResponse(head), new Response('not for HEAD'), 'HEAD', true);
    expect([head.body, head.ended]).toEqual(['', true]);
  });

  it('writes nothing to a bot that hung up, and lets go of the body', async () => {
    const response = recorded();
    response.destroyed = true;
    let cancelled = false;
    const body = new ReadableStream({ cancel: () => void (cancelled = true) });
    expect(await pass(asResponse(response), new Response(body, { status: 200 }), 'GET', true)).toMatchObject({
      status: 200,
    });
    expect([response.status, cancelled]).toEqual([0, true]);
  });
});

describe("the proxy's own answers", () => {
  it("are Discord's error shape, marked with why and whether anything was sent", () => {
    const response = recorded();
    expect(
      generated(asResponse(response), 413, PROXY_ANSWER.bodyTooLarge, 'too big', 0, { connection: 'close' }),
    ).toEqual({
      status: 413,
      generated: true,
    });
    expect(response.headers).toEqual({
      'content-type': 'application/json',
      'content-length': Buffer.byteLength('{"message":"too big","code":0}'),
      'x-tollgate-generated': 'PROXY_BODY_TOO_LARGE',
      'x-tollgate-proxy': 'generated',
      'x-tollgate-sent': '0',
      connection: 'close',
    });
    expect(JSON.parse(response.body)).toEqual({ message: 'too big', code: 0 });
  });

  it('cut the answer off instead once its head is written', () => {
    const response = recorded();
    response.headersSent = true;
    expect(generated(asResponse(response), 500, PROXY_ANSWER.failed, 'failed', 1).status).toBe(500);
    expect([response.destroyed, response.status]).toEqual([true, 0]);
  });

  it('json: a body of the proxy’s own paths, with its length', () => {
    const response = recorded();
    json(asResponse(response), 503, { status: 'draining' });
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'content-length': 21 });
    expect(response.body).toBe('{"status":"draining"}');
  });
});
