import '../runtime-check.ts'; // first: on Node.js < 22, one clear error before anything else runs
export { undiciFetch, type UndiciFetch, type UndiciFetchOptions } from './undici-fetch.ts';
