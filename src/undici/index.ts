export { undiciFetch, type UndiciFetch, type UndiciFetchOptions } from './undici-fetch.ts';
