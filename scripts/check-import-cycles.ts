// Fails when the server's source files import each other in a cycle, type-only imports included
// (docs/decisions/019-sync-module-layout.md). Tests are left out: they may import anything.
// Usage: node scripts/check-import-cycles.ts [folder]   (default src/server)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = process.argv[2] ?? 'src/server';
const aliases: Record<string, string> = { '#server/': 'src/server/', '#shared/': 'src/shared/' };

const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .map((file) => path.posix.join(root, file.split(path.sep).join('/')))
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
const known = new Set(sources);

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gms)) {
    const specifier = match[1] ?? '';
    const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
    const target = alias
      ? `${aliases[alias]}${specifier.slice(alias.length)}`
      : specifier.startsWith('.')
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
        : null;
    if (target && known.has(target)) targets.push(target);
  }
  return targets;
}

const graph = new Map(sources.map((file) => [file, importsOf(file)]));
const done = new Set<string>();
const onPath: string[] = [];
const cycles: string[] = [];

function visit(file: string): void {
  onPath.push(file);
  for (const target of graph.get(file) ?? []) {
    const at = onPath.indexOf(target);
    if (at >= 0) cycles.push([...onPath.slice(at), target].join('\n  -> '));
    else if (!done.has(target)) visit(target);
  }
  onPath.pop();
  done.add(file);
}

for (const file of sources) if (!done.has(file)) visit(file);
if (cycles.length > 0) {
  console.error(`import cycles in ${root}:\n${cycles.map((cycle) => `  ${cycle}`).join('\n\n')}`);
  process.exit(1);
}
console.log(`no import cycle among ${sources.length} files in ${root}`);
