// Outbound calls: every one has a time-out and names the service that failed; the
// fire-and-forget senders keep a message the provider did not take in their D1 outbox.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { deliverMail } from '../../../worker/api/mail/deliver'
import {
  DEFAULT_OUTBOUND_TIMEOUT_MS,
  deliver,
  fetchOutbound,
  OutboundError,
} from '../../../worker/platform/fetch'
import { appFetch } from '../../helpers/in-isolate'

/** A provider that never answers: the call ends only when its signal aborts it. */
const silent = ((_input: RequestInfo | URL, init?: RequestInit) =>
  new Promise<Response>((_, reject) => {
    const signal = init?.signal
    signal?.addEventListener('abort', () => reject(signal.reason))
  })) as typeof fetch

afterEach(() => {
  vi.restoreAllMocks()
})

async function failureOf(run: Promise<unknown>): Promise<OutboundError> {
  try {
    await run
  } catch (err) {
    if (err instanceof OutboundError) return err
    throw err
  }
  throw new Error('the call did not fail')
}

describe('fetchOutbound', () => {
  it('gives up after the time-out and says which service did not answer', async () => {
    const started = Date.now()
    const err = await failureOf(
      fetchOutbound('Mail provider', 'https://mail.test/send', { fetchImpl: silent, timeoutMs: 50 }),
    )
    expect(Date.now() - started).toBeLessThan(2000)
    expect(err).toMatchObject({
      service: 'Mail provider',
      kind: 'timeout',
      message: 'Mail provider did not answer within 50 ms',
    })
    expect((err.cause as Error).name).toBe('TimeoutError')
  })

  it('names an unreachable service, passes any HTTP answer back, and honours the caller signal', async () => {
    const refused = (async () => {
      throw new TypeError('Network connection lost.')
    }) as typeof fetch
    const down = await failureOf(fetchOutbound('Mailchimp', 'https://mc.test', { fetchImpl: refused }))
    expect(down).toMatchObject({ kind: 'unreachable', message: 'Mailchimp is unreachable' })
    const answered = await fetchOutbound('Mailchimp', 'https://mc.test', {
      fetchImpl: (async () => new Response('no', { status: 503 })) as typeof fetch,
    })
    expect(answered.status).toBe(503)
    const caller = new AbortController()
    const call = fetchOutbound('Mailchimp', 'https://mc.test', {
      fetchImpl: silent,
      signal: caller.signal,
      timeoutMs: 60_000,
    })
    caller.abort()
    expect(await failureOf(call)).toMatchObject({ kind: 'unreachable' })
  })
})

describe('deliver', () => {
  it('keeps a message the provider did not answer as failed, and one without a provider as kept', async () => {
    const kept: unknown[] = []
    const keep = async (d: unknown) => {
      kept.push(d)
    }
    const call = {
      service: 'Conversions API',
      url: 'https://graph.test',
      init: { fetchImpl: silent, timeoutMs: 30 },
    }
    expect(await deliver(call, keep)).toEqual({
      outcome: 'failed',
      providerResponse: 'OutboundError: Conversions API did not answer within 30 ms',
    })
    expect(await deliver(null, keep)).toEqual({ outcome: 'kept', providerResponse: null })
    const refusing = {
      ...call,
      init: { fetchImpl: (async () => new Response('quota', { status: 429 })) as typeof fetch },
    }
    expect(await deliver(refusing, keep)).toEqual({ outcome: 'failed', providerResponse: '429 quota' })
    expect(kept).toHaveLength(3)
  })
})

describe('senders whose provider never answers', () => {
  it('answer within the default time-out: mail and conversion events stay in their outbox, the newsletter says 502', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(silent)
    const secrets = {
      FB_PIXEL_ID: '1234',
      FB_ACCESS_TOKEN: 'secret-token',
      MAILCHIMP_API_KEY: 'mc-key',
      MAILCHIMP_LIST_URL: 'https://us1.api.mailchimp.com/3.0/lists/abc',
    }
    const call = async (path: string, body: unknown) => {
      const res = await appFetch(
        `/api${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.91' },
          body: JSON.stringify(body),
        },
        { ...env, ...secrets },
      )
      return { status: res.status, json: (await res.json()) as { code: number; result: unknown } }
    }
    const eventId = `Purchase-${crypto.randomUUID()}`
    const started = Date.now()
    const [mail, event, newsletter] = await Promise.all([
      deliverMail(
        { ...env, MAIL_PROVIDER_URL: 'https://mail.test/send', MAIL_PROVIDER_KEY: 'k' },
        {
          kind: 'outbound-test',
          from: 'shop@example.com',
          to: 'someone@example.com',
          subject: 'Hello',
          text: 'Hi',
        },
        Date.now(),
      ),
      call('/fbconversion/callFbConversionApi', {
        event_name: 'Purchase',
        event_id: eventId,
        event_time: 1_790_000_000,
        event_source_url: 'https://shop.test/p/x',
      }),
      call('/ext/mailchimp-subscribe/subscribe', { email: 'silent-provider@example.com' }),
    ])
    const took = Date.now() - started
    expect(took).toBeGreaterThanOrEqual(DEFAULT_OUTBOUND_TIMEOUT_MS - 50)
    expect(took).toBeLessThan(DEFAULT_OUTBOUND_TIMEOUT_MS + 5000)

    expect(mail).toBe('failed')
    const mailRow = await env.DB.prepare('SELECT status, provider_response FROM mail_outbox WHERE kind = ?')
      .bind('outbound-test')
      .first<{ status: string; provider_response: string }>()
    expect(mailRow).toEqual({
      status: 'failed',
      provider_response: `OutboundError: Mail provider did not answer within ${DEFAULT_OUTBOUND_TIMEOUT_MS} ms`,
    })

    expect(event.json).toMatchObject({ code: 200, result: 'failed' })
    const eventRow = await env.DB.prepare(
      'SELECT status, provider_response FROM analytics_outbox WHERE event_id = ?',
    )
      .bind(eventId)
      .first<{ status: string; provider_response: string }>()
    expect(eventRow?.status).toBe('failed')
    expect(eventRow?.provider_response).toContain('Conversions API did not answer')

    expect(newsletter).toEqual({
      status: 502,
      json: expect.objectContaining({
        code: 502,
        result: 'The newsletter service is unreachable. Please try again later.',
      }),
    })
  }, 20_000)
})
