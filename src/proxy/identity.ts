/**
 * How the proxy names a token and a route where people read them (logs, metrics): never a token. A bot token's first
 * part is the bot's id in base64, which is public; an OAuth2 token says nothing, so it is shown as
 * a short hash, enough to tell two apart.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { botIdOf } from '../dialects/v10/bot-id.ts';
import { tokenKindOf } from '../http/sender.ts';
import { classifyV10 } from '../dialects/v10/route.ts';

/** `bot 80351110224678912`, `bearer 3f2a9c1d`, or `none`. */
export function tokenLabel(authorization: string | undefined): string {
  if (authorization === undefined || authorization === '') return 'none';
  const id = botIdOf(authorization);
  if (id !== undefined) return `bot ${id}`;
  const kind = tokenKindOf(authorization) === 'bearer' ? 'bearer' : 'token';
  return `${kind} ${createHash('sha256').update(authorization).digest('hex').slice(0, 8)}`;
}

/**
 * The route template a request is logged and counted by: ids are placeholders already, and any
 * segment that is not plainly a route word (a token in a mistyped path, an emoji) is masked.
 */
export function routeOf(request: IncomingMessage): string {
  const pathname = new URL(request.url ?? '/', 'http://proxy.invalid').pathname;
  if (!pathname.startsWith('/api/')) return '-';
  const [method, template = ''] = classifyV10(request.method ?? 'GET', pathname, Date.now()).route.split(' ', 2);
  const safe = template
    .split('/')
    .map((segment) => (segment === '' || /^(:[a-z]+|[a-z@_-]{1,40})(#[a-z]+)?$/.test(segment) ? segment : ':?'))
    .join('/');
  return `${method} ${safe}`;
}
