/**
 * What a process allocates on its JS heap between two points, and its collections: the bytes are
 * what each garbage collection found (the heap's size before it, less what the last one left),
 * plus what is left at the end. Used in the overhead suite's client processes and, through
 * `servers/allocation-probe.ts`, in the proxies' own.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

export interface HeapActivity {
  readonly allocatedBytes: number;
  readonly gcCount: number;
  readonly gcMicros: number;
}

/** Starts counting; the function it returns stops and tells what happened since. */
export function countAllocations(): () => HeapActivity {
  const profiler = new GCProfiler();
  const usedAtStart = getHeapStatistics().used_heap_size;
  profiler.start();
  return () => {
    const collections = profiler.stop()?.statistics ?? [];
    let allocatedBytes = 0;
    let used = usedAtStart;
    for (const { beforeGC, afterGC } of collections) {
      allocatedBytes += beforeGC.heapStatistics.usedHeapSize - used;
      used = afterGC.heapStatistics.usedHeapSize;
    }
    allocatedBytes += getHeapStatistics().used_heap_size - used;
    return {
      allocatedBytes,
      gcCount: collections.length,
      gcMicros: collections.reduce((sum, { cost }) => sum + cost, 0),
    };
  };
}

/** Where the allocation probe of process `pid` writes what it counted (`servers/allocation-probe.ts`). */
export const allocationFileOf = (pid: number) => join(tmpdir(), `tollgate-bench-allocation-${pid}.json`);
