/**
 * `npm run lint:deps` (after depcruise's file rules): fails when contexts import each other in a
 * cycle. A context is counted across all its layers: `src/<layer>/<context>` for domain, application
 * and infrastructure and `src/interfaces/<adapter>/<context>` (http, jobs, ...) are one context, so
 * `application/incidents/x.ts` importing `domain/results/y.ts` is an arrow incidents -> results.
 * `shared` (src/<layer>/shared, src/interfaces/<adapter>/shared) is everyone's and never part of a
 * cycle; `src/main` (the composition root) and files directly under a layer or adapter belong to no
 * context. Type-only imports count, as in .dependency-cruiser.cjs. Each cycle is printed as its
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

/**
 * Arrows that go against the context map of docs/architecture.md and still close a cycle. Each is
 * removed here when its import goes; an entry whose arrow no longer exists fails the lint, so the
 * list only shrinks. Every arrow not listed must leave the contexts acyclic.
 */
export const ALLOWED_ARROWS: ReadonlyArray<{ readonly from: string; readonly to: string; readonly why: string }> = [
  {
    // Issue 49: incident management reads on-call's contact methods (ContactMethod in its ports,
    // pageRoutes and ACCOUNT_EMAIL_METHOD when a responder is added, isUuid in its SQL) and mounts
    // on-call's EscalateImIncidentNow on its incident routes, while on-call escalates IM incidents.
    // Remains until contact methods move to incident management and the escalate route to on-call.
    from: 'incident-management',
    to: 'on-call',
    why: 'issue 49: contact methods and "escalate now" not yet moved to their owner',
  },
];

/** The edges without the allowed arrows. */
export function withoutAllowed(
  edges: ReadonlyMap<string, ReadonlyMap<string, string>>,
  allowed: ReadonlyArray<{ readonly from: string; readonly to: string }>,
): Map<string, Map<string, string>> {
  const kept = new Map<string, Map<string, string>>();
  for (const [from, targets] of edges) {
    kept.set(from, new Map([...targets].filter(([to]) => !allowed.some((arrow) => arrow.from === from && arrow.to === to))));
  }
  return kept;
}

/** Allowed arrows the code no longer has: their entries must go. */
export function staleArrows(
  edges: ReadonlyMap<string, ReadonlyMap<string, string>>,
  allowed: ReadonlyArray<{ readonly from: string; readonly to: string }>,
): string[] {
  return allowed.filter(({ from, to }) => !edges.get(from)?.has(to)).map(({ from, to }) => `${from} -> ${to}`);
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
  const { totalCruised, totalDependenciesCruised } = result.output.summary;
  const known = contextCycles(edges);
  if (known.length > 0) {
    console.log(describeCycles(edges, known));
    console.log(
      `(${known.length} cycle(s) remain, each through an allowed arrow: ${ALLOWED_ARROWS.map((a) => `${a.from} -> ${a.to}`).join(', ')})\n`,
    );
  }
  const stale = staleArrows(edges, ALLOWED_ARROWS);
  const rest = withoutAllowed(edges, ALLOWED_ARROWS);
  const cycles = contextCycles(rest);
  if (cycles.length === 0 && stale.length === 0) {
    console.log(
      `✔ no cycles between contexts beyond the allowed arrows (${totalCruised} modules, ${totalDependenciesCruised} dependencies cruised)`,
    );
    return 0;
  }
  if (stale.length > 0) console.error(`✘ allowed arrows the code no longer has (remove them from ALLOWED_ARROWS): ${stale.join(', ')}`);
  if (cycles.length > 0) {
    console.error(describeCycles(rest, cycles));
    console.error(
      `\n✘ ${cycles.length} cycle(s) between contexts: a context reaches another through a port it declares, or a shared type moves to its owner.`,
    );
  }
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
