/**
 * The worker's entry: the Hono app answers requests (worker/app.ts), the Cron Triggers
 * (wrangler.toml [triggers]) run the scheduled jobs listed here.
 */

import { queueDueGiftCards } from './api/giftcard/delivery'
import { drainOutboxes } from './api/mail/outbox'
import { expireHoldingOrders } from './api/order/expire'
import { mailBackInStock } from './api/stock-alerts/notify'
import app from './app'
import { drainCourierOutbox } from './fulfilment/book'
import { pollNdrs } from './fulfilment/ndr-poll'
import { sendCartReminders } from './messages/reminders'
import { drainMessageOutbox } from './messages/send'
import { readConfig } from './platform/env'
import { runJobs, type ScheduledJob } from './platform/jobs'
import { rebuildMissingPostings } from './search'
import { pruneVitals } from './vitals/store'

/** What every Cron Trigger runs, in this order. */
const scheduledJobs: readonly ScheduledJob[] = [
  // Orders not paid or confirmed in time: everything due, in bounded batches.
  {
    name: 'expire-orders',
    run: (env, now) =>
      expireHoldingOrders(env, now).then((r) => ({ expired: r.expired.length, left: r.left })),
  },
  // Before the drain, so the mails it queues go out on the same trigger.
  { name: 'back-in-stock-mail', run: (env, now) => mailBackInStock(env, now) },
  // E-gift cards due today (the buyer's chosen day), before the drain that sends their mails.
  { name: 'gift-card-mail', run: (env, now) => queueDueGiftCards(env, readConfig(env), now) },
  { name: 'drain-outboxes', run: (env, now) => drainOutboxes(env, now) },
  // Cart reminders due (1 h and 24 h after a cart was left), before the drains that retry them.
  { name: 'cart-reminders', run: (env, now) => sendCartReminders(env, readConfig(env), now) },
  { name: 'drain-messages', run: (env, now) => drainMessageOutbox(env, now) },
  // Shipments the courier did not book yet (it was down, or refused for a while).
  { name: 'book-shipments', run: (env, now) => drainCourierOutbox(env, now) },
  // Failed deliveries the courier lists, merged with its webhooks (one lost never hides an NDR).
  { name: 'poll-ndrs', run: (env, now) => pollNdrs(env, now) },
  { name: 'prune-field-data', run: (env, now) => pruneVitals(env, now) },
  // Search builds a back-office edit dropped are made again here, not by a shopper's request.
  { name: 'rebuild-search-postings', run: (env) => rebuildMissingPostings(env) },
]

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runJobs(scheduledJobs, env, controller.scheduledTime))
  },
} satisfies ExportedHandler<Env>
