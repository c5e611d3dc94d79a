// Types of tests/helpers/chromium.mjs for the TypeScript files that import it.
export const CHROMIUM_ARGS: string[]
