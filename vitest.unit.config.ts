import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Tier 1: pure code (shared/, client/ logic) in Node.
export default defineConfig({
  // `@shared/…` names the isomorphic tree (tsconfig paths); the bundlers read it from tsconfig.json.
  resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    // The files of one worker run one after another in one process; the setup gives each what a
    // new process would (its modules evaluated afresh, no global an earlier file left).
    isolate: false,
    setupFiles: ['./tests/unit/setup.ts'],
    silent: 'passed-only',
    // A time limit catches a hang, not slowness (speed lives in `npm run bench`): generous enough
    // for the property-based and image tests on a busy two-core machine.
    testTimeout: 30_000,
  },
})
