/**
 * Preloaded into a proxy's process by the proxy suite (`node --import ./bench/servers/allocation-probe.ts`):
 * SIGUSR2 starts counting what the process allocates (`../allocation.ts`), the next SIGUSR2 stops
 * and writes it as JSON to `allocationFileOf(pid)`. The proxy itself is as a user runs it.
 */
import { writeFileSync } from 'node:fs';
import { allocationFileOf, countAllocations, type HeapActivity } from '../allocation.ts';

let stop: (() => HeapActivity) | undefined;
process.on('SIGUSR2', () => {
  if (stop === undefined) {
    stop = countAllocations();
    return;
  }
  writeFileSync(allocationFileOf(process.pid), JSON.stringify(stop()));
  stop = undefined;
});
