/**
 * Outbound calls to other services. Every call has a time-out (a few seconds unless the caller
 * sets its own), and every failure to get an answer is an OutboundError naming the service, so a
 * log line or a message says which provider failed and how. Fire-and-forget senders (mail,
 * newsletter, analytics) go through `deliver`, which never throws: the message is always kept in
 * the sender's D1 outbox with the outcome, and one the provider did not take stays there as
 * 'failed' for a later retry.
 */

/** How long an outbound call may take unless its caller says otherwise. */
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 5000

/** The longest provider answer kept in an outbox row. */
const MAX_KEPT_RESPONSE_CHARS = 500

/** A service did not answer: it timed out, or it could not be reached. */
export class OutboundError extends Error {
  constructor(
    /** The service, as people call it ("Mail provider", "Upstream API"). */
    readonly service: string,
    readonly kind: 'timeout' | 'unreachable',
    readonly timeoutMs: number,
    cause: unknown,
  ) {
    super(
      kind === 'timeout' ? `${service} did not answer within ${timeoutMs} ms` : `${service} is unreachable`,
      { cause },
    )
    this.name = 'OutboundError'
  }
}

interface OutboundInit extends RequestInit {
  /** Time-out of this call in ms (default DEFAULT_OUTBOUND_TIMEOUT_MS). */
  timeoutMs?: number
  /** Replaces the global fetch (tests inject an upstream). */
  fetchImpl?: typeof fetch
}

/**
 * Calls `url` with a time-out; any HTTP answer is returned as is (the caller judges its status),
 * no answer at all is an OutboundError for `service`.
 */
export async function fetchOutbound(
  service: string,
  url: string,
  init: OutboundInit = {},
): Promise<Response> {
  const { timeoutMs = DEFAULT_OUTBOUND_TIMEOUT_MS, fetchImpl = fetch, ...request } = init
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout
  try {
    return await fetchImpl(url, { ...request, signal })
  } catch (err) {
    const name = (err as Error)?.name
    const timedOut = name === 'TimeoutError' || (name === 'AbortError' && timeout.aborted)
    throw new OutboundError(service, timedOut ? 'timeout' : 'unreachable', timeoutMs, err)
  }
}

/** What became of a message for a provider: taken, refused or unanswered, or never sent. */
export interface Delivery {
  /** 'sent': the provider took it (2xx); 'failed': it refused or did not answer; 'kept': no provider. */
  outcome: 'sent' | 'failed' | 'kept'
  /** The provider's status and the start of its answer, or why there was none. */
  providerResponse: string | null
}

/**
 * Sends a fire-and-forget message to its provider (when one is configured: `call` is null
 * otherwise) and hands the outcome to `keep`, which records the message in its outbox. Never
 * throws for the provider; a failure of `keep` (the database) is the caller's.
 */
export async function deliver(
  call: { service: string; url: string; init: OutboundInit } | null,
  keep: (delivery: Delivery) => Promise<unknown>,
): Promise<Delivery> {
  let delivery: Delivery = { outcome: 'kept', providerResponse: null }
  if (call) {
    try {
      const res = await fetchOutbound(call.service, call.url, call.init)
      const text = await res.text()
      delivery = {
        outcome: res.ok ? 'sent' : 'failed',
        providerResponse: `${res.status} ${text.slice(0, MAX_KEPT_RESPONSE_CHARS)}`,
      }
    } catch (err) {
      delivery = { outcome: 'failed', providerResponse: String(err).slice(0, MAX_KEPT_RESPONSE_CHARS) }
    }
  }
  await keep(delivery)
  return delivery
}
