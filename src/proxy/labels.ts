/**
 * How the proxy names a token and a route where people read them (logs, metrics): never a token. A bot token's first
 * part is the bot's id in base64, which is public; an OAuth2 token says nothing, so it is shown as
 * a short hash, enough to tell two apart.
 */
import { createHash } from 'node:crypto';
import { botIdOf, tokenKindOf } from '../tokens.ts';

/** `bot 80351110224678912`, `bearer 3f2a9c1d`, or `none`. */
export function tokenLabel(authorization: string | undefined): string {
  if (authorization === undefined || authorization === '') return 'none';
  const id = botIdOf(authorization);
  if (id !== undefined) return `bot ${id}`;
  const kind = tokenKindOf(authorization) === 'bearer' ? 'bearer' : 'token';
  return `${kind} ${createHash('sha256').update(authorization).digest('hex').slice(0, 8)}`;
}

/**
 * A route template as it is logged and counted (`-` without one): ids are placeholders already,
 * and any segment that is not plainly a route word (a token in a mistyped path, an emoji) is masked.
 */
export function routeLabel(route: string | undefined): string {
  if (route === undefined || route === '-') return '-';
  const [method, template = ''] = route.split(' ', 2);
  const safe = template
    .split('/')
    .map((segment) => (segment === '' || /^(:[a-z]+|[a-z@_-]{1,40})(#[a-z]+)?$/.test(segment) ? segment : ':?'))
    .join('/');
  return `${method} ${safe}`;
}
