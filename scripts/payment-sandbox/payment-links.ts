/**
 * Razorpay Payment Links in the local test payment provider, as the shop calls them:
 * POST /v1/payment_links (amount, currency, reference_id unique and ≤ 40 characters, expire_by at
 * least 15 minutes ahead, callback_url/callback_method), GET /v1/payment_links/{id},
 * GET /v1/payment_links?reference_id=, POST /v1/payment_links/{id}/cancel; the hosted page at its
 * short_url with a TEST "Pay" button; once paid, the payment_link.paid webhook (with the
 * payment.captured the payment also raises) and the browser sent back to callback_url with
 * razorpay_signature = HMAC-SHA256(key secret, link id|reference id|status|payment id).
 */

interface LinkOptions {
  origin: string
  keySecret: string
  /** Sends a signed Razorpay webhook (the sandbox's own sender). */
  webhook: (event: string, payload: Record<string, unknown>) => Promise<void>
  /** Records a payment so GET /v1/payments/{id} answers it. */
  recordPayment: (payment: Record<string, unknown> & { id: string }) => void
  hmacHex: (secret: string, message: string) => Promise<string>
  rid: (prefix: string) => string
}

interface Link {
  id: string
  entity: 'payment_link'
  amount: number
  amount_paid: number
  currency: string
  accept_partial: boolean
  reference_id: string
  description: string
  customer: Record<string, unknown>
  notify: Record<string, unknown>
  reminder_enable: boolean
  upi_link: boolean
  expire_by: number
  callback_url: string | null
  callback_method: string | null
  status: 'created' | 'partially_paid' | 'expired' | 'cancelled' | 'paid'
  short_url: string
  notes: Record<string, unknown>
  payments: { payment_id: string; amount: number; status: string; method: string }[] | null
  order_id: string
  created_at: number
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const rzpError = (status: number, description: string, field?: string) =>
  json(
    {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description,
        field,
        source: 'business',
        reason: 'input_validation_failed',
      },
    },
    status,
  )
const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export function createPaymentLinks(opts: LinkOptions) {
  const links = new Map<string, Link>()

  async function create(req: Request): Promise<Response> {
    const b = (await req.json().catch(() => null)) as Record<string, unknown> | null
    if (!b) return rzpError(400, 'The request body is not valid JSON')
    const now = Math.floor(Date.now() / 1000)
    if (!Number.isInteger(b.amount) || (b.amount as number) < 100)
      return rzpError(400, 'The amount must be atleast INR 1.00', 'amount')
    if (b.currency !== 'INR') return rzpError(400, 'Currency is not supported', 'currency')
    const ref = typeof b.reference_id === 'string' ? b.reference_id : ''
    if (ref.length > 40)
      return rzpError(400, 'The reference id may not be greater than 40 characters.', 'reference_id')
    if (ref && [...links.values()].some((l) => l.reference_id === ref))
      return rzpError(400, `Payment Link with reference id ${ref} already exists`, 'reference_id')
    if (typeof b.expire_by === 'number' && b.expire_by < now + 15 * 60)
      return rzpError(
        400,
        'The expire by date should be at least 15 minutes after the current time',
        'expire_by',
      )
    const id = opts.rid('plink_')
    const link: Link = {
      id,
      entity: 'payment_link',
      amount: b.amount as number,
      amount_paid: 0,
      currency: 'INR',
      accept_partial: b.accept_partial === true,
      reference_id: ref,
      description: String(b.description ?? ''),
      customer: (b.customer as Record<string, unknown>) ?? {},
      notify: (b.notify as Record<string, unknown>) ?? {},
      reminder_enable: b.reminder_enable === true,
      upi_link: b.upi_link === true,
      expire_by: typeof b.expire_by === 'number' ? b.expire_by : 0,
      callback_url: typeof b.callback_url === 'string' ? b.callback_url : null,
      callback_method: typeof b.callback_method === 'string' ? b.callback_method : null,
      status: 'created',
      short_url: `${opts.origin}/pl/${id}`,
      notes: (b.notes as Record<string, unknown>) ?? {},
      payments: null,
      order_id: opts.rid('order_'),
      created_at: now,
    }
    links.set(id, link)
    return json(link)
  }

  /** Pays a link as its hosted page's button does; the browser's way back to the shop, or an error. */
  async function pay(
    id: string,
  ): Promise<{ redirect: string | null; paymentId: string } | { error: string }> {
    const link = links.get(id)
    if (!link) return { error: 'This payment link does not exist.' }
    if (link.expire_by && link.expire_by * 1000 < Date.now()) link.status = 'expired'
    if (link.status !== 'created') return { error: `This payment link is ${link.status}.` }
    const payment = {
      id: opts.rid('pay_'),
      entity: 'payment',
      amount: link.amount,
      currency: link.currency,
      status: 'captured',
      order_id: link.order_id,
      method: 'upi',
      amount_refunded: 0,
      refund_status: null,
      captured: true,
      error_code: null,
      error_description: null,
      created_at: Math.floor(Date.now() / 1000),
    }
    opts.recordPayment(payment)
    link.status = 'paid'
    link.amount_paid = link.amount
    link.payments = [{ payment_id: payment.id, amount: payment.amount, status: 'captured', method: 'upi' }]
    await opts.webhook('payment.captured', { payment: { entity: payment } })
    await opts.webhook('payment_link.paid', {
      payment_link: { entity: link },
      payment: { entity: payment },
      order: { entity: { id: link.order_id, amount: link.amount, amount_paid: link.amount, status: 'paid' } },
    })
    if (!link.callback_url) return { redirect: null, paymentId: payment.id }
    const signature = await opts.hmacHex(
      opts.keySecret,
      `${link.id}|${link.reference_id}|${link.status}|${payment.id}`,
    )
    const q = new URLSearchParams({
      razorpay_payment_id: payment.id,
      razorpay_payment_link_id: link.id,
      razorpay_payment_link_reference_id: link.reference_id,
      razorpay_payment_link_status: link.status,
      razorpay_signature: signature,
    })
    return {
      redirect: `${link.callback_url}${link.callback_url.includes('?') ? '&' : '?'}${q}`,
      paymentId: payment.id,
    }
  }

  function page(link: Link): Response {
    return new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>TEST payment link</title>
<style>body{font:16px system-ui,sans-serif;margin:0;background:#fff8e1}.banner{background:#b71c1c;color:#fff;padding:.6rem 1rem;font-weight:700}main{padding:1.2rem;max-width:28rem;margin:auto}button{font:inherit;padding:.7rem 1.2rem;border-radius:6px;background:#2e7d32;color:#fff;border:0}</style></head>
<body><div class="banner" role="alert">TEST MODE — local test payment provider. No real money moves.</div>
<main><h1>TEST payment link</h1><p>${esc(link.description)} — <b>INR ${(link.amount / 100).toFixed(2)}</b></p><p>Status: <b>${esc(link.status)}</b></p>
${link.status === 'created' ? `<form method="post" action="/pl/${esc(link.id)}/pay"><button>Pay INR ${(link.amount / 100).toFixed(2)} by UPI</button></form>` : ''}</main></body></html>`,
      { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
    )
  }

  /** Answers the payment-link paths (null for any other path). `authed` is the Basic auth check. */
  async function handle(req: Request, authed: boolean): Promise<Response | null> {
    const url = new URL(req.url)
    const path = url.pathname
    const hosted = path.match(/^\/pl\/([^/]+)(\/pay)?$/)
    if (hosted) {
      const link = links.get(decodeURIComponent(hosted[1] as string))
      if (!link) return new Response('No such payment link', { status: 404 })
      if (req.method === 'GET' && !hosted[2]) return page(link)
      if (req.method === 'POST' && hosted[2]) {
        const paid = await pay(link.id)
        if ('error' in paid) return page(link)
        return paid.redirect
          ? new Response(null, { status: 303, headers: { location: paid.redirect } })
          : page(link)
      }
      return null
    }
    if (!path.startsWith('/v1/payment_links')) return null
    if (!authed) return rzpError(401, 'Authentication failed')
    if (req.method === 'POST' && path === '/v1/payment_links') return create(req)
    if (req.method === 'GET' && path === '/v1/payment_links') {
      const ref = url.searchParams.get('reference_id')
      return json({ payment_links: [...links.values()].filter((l) => !ref || l.reference_id === ref) })
    }
    const one = path.match(/^\/v1\/payment_links\/([^/]+)(\/cancel)?$/)
    const link = one ? links.get(decodeURIComponent(one[1] as string)) : undefined
    if (!one || !link) return rzpError(400, 'The id provided does not exist')
    if (req.method === 'GET' && !one[2]) return json(link)
    if (req.method === 'POST' && one[2]) {
      if (link.status !== 'created')
        return rzpError(400, `Payment link cannot be cancelled in ${link.status} status`)
      link.status = 'cancelled'
      return json(link)
    }
    return null
  }

  return { handle, pay }
}
