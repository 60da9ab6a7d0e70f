/**
 * How the proxy names a token where people read it (logs): never the token. A bot token's first
 * part is the bot's id in base64, which is public; an OAuth2 token says nothing, so it is shown as
 * a short hash, enough to tell two apart.
 */
import { createHash } from 'node:crypto';

/** `bot 80351110224678912`, `bearer 3f2a9c1d`, or `none`. */
export function tokenLabel(authorization: string | undefined): string {
  if (authorization === undefined || authorization === '') return 'none';
  const [scheme = '', credential = ''] = authorization.split(/\s+/, 2);
  if (/^bot$/i.test(scheme)) {
    const id = botIdOf(credential);
    if (id !== undefined) return `bot ${id}`;
  }
  const kind = /^bearer$/i.test(scheme) ? 'bearer' : 'token';
  return `${kind} ${createHash('sha256').update(authorization).digest('hex').slice(0, 8)}`;
}

/** The bot id a token's first segment encodes, when it is one (digits only, as ids are). */
function botIdOf(credential: string): string | undefined {
  const first = credential.split('.', 1)[0] ?? '';
  if (!/^[A-Za-z0-9_-]{4,}$/.test(first)) return undefined;
  const decoded = Buffer.from(first, 'base64url').toString('utf8');
  return /^\d{15,20}$/.test(decoded) ? decoded : undefined;
}
