// Configured integrations (Conversions API, Mailchimp, mail provider): the app is called directly
// with the secrets added to env, and outbound fetch is replaced by a recorder.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import app from '../../../../worker/app'

type Sent = { url: string; init: RequestInit }
function recordFetch(reply: (url: string) => Response): Sent[] {
  const sent: Sent[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    sent.push({ url, init: init ?? {} })
    return reply(url)
  })
  return sent
}

async function call(path: string, secrets: Partial<Env>, init: { method?: string; body?: unknown } = {}) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test/api${path}`, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.7' },
      body: init.body ? JSON.stringify(init.body) : undefined,
    }),
    { ...env, ...secrets },
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return { status: res.status, json: (await res.json()) as { code: number; result: unknown } }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('configured integrations', () => {
  it('forwards conversion events to the Conversions API with hashed user data', async () => {
    const sent = recordFetch(() => new Response('{"events_received":1}', { status: 200 }))
    const res = await call(
      '/fbconversion/callFbConversionApi',
      { FB_PIXEL_ID: '1234', FB_ACCESS_TOKEN: 'secret-token' },
      {
        body: {
          event_name: 'AddToCart',
          event_id: 'AddToCart-ff00',
          event_time: 1_790_000_000,
          user_data: { em: 'a@example.com' },
          event_source_url: 'https://shop.test/p/x',
          action_source: 'website',
          custom_data: { currency: 'INR', value: 10 },
        },
      },
    )
    expect(res.json.result).toBe('sent')
    expect(sent).toHaveLength(1)
    expect(sent[0]?.url).toBe('https://graph.facebook.com/v19.0/1234/events')
    const payload = JSON.parse(String(sent[0]?.init.body))
    expect(payload.access_token).toBe('secret-token')
    expect(payload.data[0].user_data.em).toMatch(/^[0-9a-f]{64}$/)
    expect(payload.data[0].user_data.client_ip_address).toBe('198.51.100.7')
  })

  it('uses Mailchimp for the newsletter when configured', async () => {
    const sent = recordFetch((url) =>
      url.includes('/members/')
        ? new Response('{"status":"subscribed"}', { status: 200 })
        : new Response('', { status: 500 }),
    )
    const secrets = {
      MAILCHIMP_API_KEY: 'mc-key',
      MAILCHIMP_LIST_URL: 'https://us1.api.mailchimp.com/3.0/lists/abc',
    }
    const res = await call('/ext/mailchimp-subscribe/subscribe', secrets, {
      body: { email: 'Reader@Example.com' },
    })
    // Double opt-in: a new member starts pending (Mailchimp mails the confirmation).
    expect(res.json.result).toBe('pending')
    // Member id = MD5 of the lower-cased address.
    expect(sent[0]?.url).toBe(
      'https://us1.api.mailchimp.com/3.0/lists/abc/members/baa0f4114eafbdd39ce828d01b849ae6',
    )
    expect(sent[0]?.init.method).toBe('PUT')
    expect(JSON.parse(String(sent[0]?.init.body))).toMatchObject({ status_if_new: 'pending' })
    const headers = (sent[0] as Sent).init.headers as Record<string, string>
    expect(headers.authorization).toBe('apikey mc-key')
    const local = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM newsletter_subscribers WHERE email = 'reader@example.com'",
    ).first<{ n: number }>()
    expect(local?.n).toBe(0)
  })

  it('delivers mail through the provider and records it as sent', async () => {
    const sent = recordFetch(() => new Response('{"id":"m1"}', { status: 202 }))
    const secrets = { MAIL_PROVIDER_URL: 'https://mail.example/send', MAIL_PROVIDER_KEY: 'mk' }
    const token = (await call('/ext/mail-service/get-token', secrets)).json.result as string
    const res = await call('/ext/mail-service/send-email', secrets, {
      body: {
        sourceAddress: 'shopper@example.com',
        targetAddress: 'care@ode-atelier.example',
        subject: 'Provider test',
        emailText: 'Hi',
        token,
      },
    })
    expect(res.json.result).toBe('sent')
    expect(sent.at(-1)?.url).toBe('https://mail.example/send')
    const row = await env.DB.prepare("SELECT status FROM mail_outbox WHERE subject = 'Provider test'").first<{
      status: string
    }>()
    expect(row?.status).toBe('sent')
  })
})
