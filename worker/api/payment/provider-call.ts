/**
 * What every payment route shares about the provider: a call that fails or is refused becomes a
 * 502 that says nothing was charged or changed, and follow-up work (mails, gift card codes) runs
 * after the answer.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { OutboundError } from '../../platform/fetch'
import { fail } from '../../platform/http'
import { runAfterAnswer } from '../mail/deliver'
import { ProviderError } from './razorpay'
import type { Later } from './settle'

/** A provider that failed to answer or refused: 502, nothing charged or changed. */
export async function viaProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ProviderError || err instanceof OutboundError) {
      console.error(JSON.stringify({ msg: 'payment provider call failed', err: err.message }))
      return fail(
        502,
        `The payment provider could not complete the request (${err.message.slice(0, 120)}). Please try again.`,
      )
    }
    throw err
  }
}

/** Work to run after the request's answer (the request's own waitUntil). */
export const later =
  (c: Context<AppEnv>): Later =>
  (work, label) =>
    runAfterAnswer(c, work, label)
