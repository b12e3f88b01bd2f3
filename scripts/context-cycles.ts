/**
 * `npm run lint:deps` (after depcruise's file rules): fails when contexts import each other in a
 * cycle. A context is counted across all its layers: `src/<layer>/<context>` for domain, application
 * and infrastructure and `src/interfaces/<adapter>/<context>` (http, jobs, ...) are one context, so
 * `application/incidents/x.ts` importing `domain/results/y.ts` is an arrow incidents -> results.
 * `shared` (src/<layer>/shared, src/interfaces/<adapter>/shared) is everyone's and never part of a
 * cycle; `src/main` (the composition root) and files directly under a layer or adapter belong to no
 * context. Type-only imports count, as in .dependency-cruiser.cjs. Any cycle fails, printed as its
 * contexts and, for every arrow between two of them, one import that makes it.
 */
import path from 'node:path';

const contextPattern = /^src\/(?:domain|application|infrastructure|interfaces\/[^/]+)\/([^/]+)\//;

/** The context of a source path, or undefined for shared, the composition root and files outside any context. */
export function contextOf(source: string): string | undefined {
  const match = contextPattern.exec(source);
  if (!match || match[1] === 'shared') return undefined;
  return match[1];
}

export interface ModuleImports {
  source: string;
  dependencies: ReadonlyArray<{ resolved: string }>;
}

/** Edges between contexts, each with the first file import found that makes it: from -> to -> example. */
export function contextEdges(modules: readonly ModuleImports[]): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const module of modules) {
    const from = contextOf(module.source);
    if (from === undefined) continue;
    for (const { resolved } of module.dependencies) {
      const to = contextOf(resolved);
      if (to === undefined || to === from) continue;
      const targets = edges.get(from) ?? new Map<string, string>();
      edges.set(from, targets);
      if (!targets.has(to)) targets.set(to, `${module.source} -> ${resolved}`);
    }
  }
  return edges;
}

/** Strongly connected components of more than one context (Tarjan), each sorted, in a stable order. */
export function contextCycles(edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The report of the cycles: each cycle's contexts, then the imports between them, one example each. */
export function describeCycles(edges: ReadonlyMap<string, ReadonlyMap<string, string>>, cycles: readonly string[][]): string {
  const lines: string[] = [];
  for (const cycle of cycles) {
    lines.push(`cycle between contexts: ${cycle.join(', ')}`);
    const members = new Set(cycle);
    for (const from of cycle) {
      for (const [to, example] of [...(edges.get(from) ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
        if (members.has(to)) lines.push(`  ${from} -> ${to}  (${example})`);
      }
    }
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const root = path.resolve(__dirname, '..');
  process.chdir(root);
  const { cruise } = await import('dependency-cruiser');
  const { default: extractDepcruiseOptions } = await import('dependency-cruiser/config-utl/extract-depcruise-options');
  const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  const options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.cjs'));
  // Only the graph is wanted here: depcruise itself checks the file rules.
  const result = await cruise(['src'], { ...options, ruleSet: undefined, validate: false }, undefined, {
    tsConfig: extractTSConfig(options.tsConfig?.fileName ?? 'tsconfig.json'),
  });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, not a cruise result');
  const edges = contextEdges(result.output.modules);
  const cycles = contextCycles(edges);
  if (cycles.length === 0) {
    const { totalCruised, totalDependenciesCruised } = result.output.summary;
    console.log(`✔ no cycles between contexts (${totalCruised} modules, ${totalDependenciesCruised} dependencies cruised)`);
    return 0;
  }
  console.error(describeCycles(edges, cycles));
  console.error(
    `\n✘ ${cycles.length} cycle(s) between contexts: a concept moves to its one owner, a downstream context declares the port it needs (bound in src/main/modules), or news travels as a typed event (docs/architecture.md, the context map).`,
  );
  return 1;
}

if (require.main === module) {
  main().then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
