// Fails when the JavaScript a first visit to /home downloads (gzip) exceeds the budget.
// It reads the built index.html: its entry script plus every module it preloads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const webRoot = join(import.meta.dirname, '..', 'dist', 'web');
const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
const files = [
  ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
].map((match) => match[1] ?? '');

let totalBytes = 0;
for (const file of new Set(files)) {
  const bytes = gzipSync(readFileSync(join(webRoot, file))).length;
  totalBytes += bytes;
  console.log(`${(bytes / 1024).toFixed(1).padStart(7)} kB  ${file}`);
}
const totalKb = totalBytes / 1024;
console.log(
  `${totalKb.toFixed(1).padStart(7)} kB  initial JavaScript for /home (gzip), budget ${BUDGET_KB} kB`,
);
if (files.length === 0 || totalKb > BUDGET_KB) {
  console.error(files.length === 0 ? 'No scripts found in index.html' : 'Over budget');
  process.exit(1);
}
