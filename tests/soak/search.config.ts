// The search engine's generated-case tests for `npm run soak`: the worker tier's configuration,
// only the files whose cases are generated, with __SEARCH_SOAK__ defined so they run
// SEARCH_SOAK_FACTOR times the default tier's cases from SEARCH_SOAK_SEED
// (tests/worker/search/generated-runs.ts).
import { defineConfig } from 'vitest/config'
import workerConfig from '../../vitest.worker.config'

export default defineConfig(async (env) => {
  const base = await workerConfig(env)
  return {
    ...base,
    define: {
      ...base.define,
      __SEARCH_SOAK__: JSON.stringify({
        factor: Number(process.env.SEARCH_SOAK_FACTOR ?? 10),
        seed: Number(process.env.SEARCH_SOAK_SEED ?? Date.now() % 2_147_483_647),
      }),
    },
    test: {
      ...base.test,
      // Replaces the worker tier's include (a merge would add to it).
      include: [
        'tests/worker/search/differential.test.ts',
        'tests/worker/search/limits.test.ts',
        'tests/worker/search/rebuild-job.test.ts',
      ],
      testTimeout: 600_000,
    },
  }
})
