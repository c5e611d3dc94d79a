// Test-only bindings (workers-sdk d1 example pattern), filled in by vitest.worker.config.ts.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[]
    /** The demo catalogue as SQL statements (run in order) and the URL mappings of its rows. */
    TEST_SEED: {
      sql: string[]
      urlMappings: Array<[string, import('../../worker/catalog/url-map').UrlMapping]>
    }
  }
}
