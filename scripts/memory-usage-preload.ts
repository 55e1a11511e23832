import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

/**
 * Preloaded by `scripts/measure-embedded-memory.ts --breakdown` (`node --expose-gc --import`): on
 * SIGUSR2 the process writes where its memory is to stderr, one line, in MB: RSS; the V8 heap (used,
 * used after a full collection, the sizes of its new and old spaces); what V8 counts outside its heap
 * (external, of which array buffers); and PGlite's WebAssembly memory, its size and its resident part
 * (read from /proc/self/smaps as the mapping of that size).
 */
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const memories: WebAssembly.Memory[] = [];
WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
  construct(target, args) {
    const memory = Reflect.construct(target, args) as WebAssembly.Memory;
    memories.push(memory);
    return memory;
  },
});

/** The resident bytes of the mappings exactly `sizes` bytes long. */
function residentOfMappings(sizes: number[]): number {
  let total = 0;
  let size = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (range) size = Number.parseInt(range[2] as string, 16) - Number.parseInt(range[1] as string, 16);
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && sizes.includes(size)) total += Number(rss[1]) * 1024;
  }
  return total;
}

process.on('SIGUSR2', () => {
  const before = process.memoryUsage();
  (globalThis as { gc?: () => void }).gc?.();
  const after = process.memoryUsage();
  const spaces = getHeapSpaceStatistics();
  const space = (name: string) => spaces.find((each) => each.space_name === name);
  const figures = {
    rss: mb(before.rss),
    heapUsed: mb(before.heapUsed),
    heapTotal: mb(before.heapTotal),
    heapUsedAfterGc: mb(after.heapUsed),
    newSpace: mb(space('new_space')?.space_size ?? 0),
    oldSpace: mb(space('old_space')?.space_size ?? 0),
    external: mb(before.external),
    arrayBuffers: mb(before.arrayBuffers),
    wasmMemory: mb(memories.reduce((sum, memory) => sum + memory.buffer.byteLength, 0)),
    wasmResident: mb(residentOfMappings(memories.map((memory) => memory.buffer.byteLength))),
  };
  process.stderr.write(`memory-usage ${JSON.stringify(figures)}\n`);
});
