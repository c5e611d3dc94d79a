// The shop served by workerd through the Miniflare API instead of `wrangler dev` (`npm start --
// --workerd`; the browser tier's shops). The worker is bundled by wrangler as a deploy bundles it
// (`wrangler deploy --dry-run`), its bindings and vars are read from wrangler.toml and .dev.vars by
// wrangler's own reader, and its D1/KV/R2 state is the one `wrangler dev --persist-to DIR` keeps
// (DIR/v3), so either server opens the same shop. Left out is what a test run does not use:
// wrangler dev's second workerd (a proxy in front of the shop that holds requests while an edited
// source rebuilds) and the watching of every source. Measured on 17 browser tests: 17 % less CPU
// and wall time (docs/testing.md).
import { existsSync, mkdirSync, readFileSync, rmSync, watch } from 'node:fs'
import path from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { quietEnv, root, run } from './lib.mjs'

/** The client build's manifest, which the worker bundles: a new one is a new deploy. */
const MANIFEST = path.join(root, 'worker/platform/render/manifest.generated.json')
const buildIdOf = () => (existsSync(MANIFEST) ? JSON.parse(readFileSync(MANIFEST, 'utf8')).buildId : null)

/** Bundles the worker into `dir` (dir/index.js) as `wrangler deploy` would upload it. */
function bundle(dir) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  run('wrangler', ['deploy', '--dry-run', '--env', '', '--outdir', dir], {
    env: quietEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

/** Miniflare's options for the bundle in `dir` on 127.0.0.1:`port`. */
function shopOptions({ port, persist, vars, dir }) {
  // Module rules say how wrangler bundles imports of other file types; the bundle has none left.
  const { modulesRules: _, ...worker } = unstable_getMiniflareWorkerOptions(
    path.join(root, 'wrangler.toml'),
    '',
  ).workerOptions
  // wrangler's reader gives Miniflare 4's option shape; Miniflare 5 converts it.
  return convertV4MiniflareOptions({
    host: '127.0.0.1',
    port: Number(port),
    resourcePersistencePath: path.resolve(root, persist ?? '.wrangler/state', 'v3'),
    // GET /cdn-cgi/local/scheduled?cron=… runs the Cron Trigger jobs, as under wrangler dev.
    unsafeTriggerHandlers: true,
    // No request.cf from the platform: a local shop opens in its default country and a request
    // acts as one abroad by sending CF-IPCountry, as under wrangler dev (scripts/start.mjs).
    cf: {},
    log: new Log(LogLevel.WARN),
    workers: [
      {
        ...worker,
        name: 'shop',
        modules: true,
        scriptPath: path.join(dir, 'index.js'),
        modulesRoot: dir,
        bindings: { ...worker.bindings, ...vars },
      },
    ],
  })
}

/**
 * Serves the worker on 127.0.0.1:`port` with the local state in `persist` (default
 * .wrangler/state) and `vars` over wrangler.toml's and .dev.vars' values, bundling it into `dir`.
 * A new client build (a new build id in its manifest) is deployed as a release would be: the worker
 * is bundled again and replaces the running one, which then serves the new public/ files (the
 * runtime restarts on the same port, refusing connections for a moment). Resolves
 * once the shop answers; `dispose()` stops it.
 */
export async function serveWorkerd({ port, persist, vars, dir }) {
  bundle(dir)
  const mf = new Miniflare(shopOptions({ port, persist, vars, dir }))
  await mf.ready
  let served = buildIdOf()
  let deploying = Promise.resolve()
  let timer
  // The build writes its files, then the manifest; a quiet moment after the manifest changes
  // means the build has ended.
  const watcher = watch(path.dirname(MANIFEST), (_, file) => {
    if (file !== path.basename(MANIFEST)) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      deploying = deploying.then(async () => {
        const built = buildIdOf()
        if (!built || built === served) return
        bundle(dir)
        await mf.setOptions(shopOptions({ port, persist, vars, dir }))
        served = built
      })
    }, 300)
  })
  return {
    dispose: () => {
      watcher.close()
      clearTimeout(timer)
      return deploying.then(() => mf.dispose())
    },
  }
}
