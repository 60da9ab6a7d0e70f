/** `tollgate/undici`: a fetch on undici's request API, the fastest transport on Node (needs the `undici` package). */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs
export { undiciFetch, type UndiciFetch, type UndiciFetchOptions } from './undici-fetch.ts';
