/**
 * Scheduled work (Cron Triggers): every job runs on every trigger, one after another, each with
 * its own error handling, so one failing job never stops the others. Each run logs one line per
 * job (name, outcome, duration) for Workers Logs.
 */

export interface ScheduledJob {
  name: string
  /** Does the job's work for the trigger time `now` (ms epoch); returns what it did, for the log. */
  run(env: Env, now: number): Promise<unknown>
}

/** Runs every job for one trigger; resolves when all have finished, never rejects. */
export async function runJobs(jobs: readonly ScheduledJob[], env: Env, now: number): Promise<void> {
  for (const job of jobs) {
    const started = Date.now()
    try {
      const result = await job.run(env, now)
      console.log(
        JSON.stringify({ msg: 'scheduled job done', job: job.name, ms: Date.now() - started, result }),
      )
    } catch (err) {
      console.error(JSON.stringify({ msg: 'scheduled job failed', job: job.name, err: String(err) }))
    }
  }
}
