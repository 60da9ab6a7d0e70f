/** The dialects a client can speak, by API version: looked up once per client. */
import type { Dialect } from '../contracts/dialect.ts';
import { v10 } from './v10/index.ts';
import { v6 } from './v6/index.ts';

export type ApiVersion = 'v10' | 'v6';

export const DIALECTS: Readonly<Record<ApiVersion, Dialect>> = { v10, v6 };
