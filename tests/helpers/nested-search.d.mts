// Types of tests/helpers/nested-search.mjs for the TypeScript tests that import it.
export function nestedChain(depth: number): Record<string, unknown>
