/**
 * The local WhatsApp stand-in: the Cloud API's template send as the shop calls it
 * (POST /{version}/{phone-number-id}/messages with a bearer token; Meta's answer and error shapes),
 * its webhooks (statuses sent/delivered/read/failed and button or text replies, signed with
 * X-Hub-Signature-256 = HMAC-SHA256 of the raw body with the app secret), the verification
 * handshake against the shop, and a clearly labelled TEST page showing what each phone received,
 * with its reply buttons: pressing one posts the signed button notification to the shop.
 * State lives in memory.
 *
 * Written against Web APIs only: the Node server (server.ts) and the worker tests load this same
 * module. The worker never imports it; production differs only in the base URL and secrets.
 * Its "approved templates" are the shop's own list (worker/messages/templates.ts), as the operator
 * registers them in WhatsApp Manager.
 */
import {
  renderTemplate,
  TEMPLATES,
  type TemplateDef,
  variableCount,
} from '../../worker/messages/templates.ts'
import { hmacHex } from '../stand-in-hmac.ts'
import type { DeliverWebhook } from '../stand-in-server.ts'

interface WhatsAppSandboxOptions {
  origin: string
  /** The shop's origin; notifications go to <shop>/api/messages/whatsapp/webhook. */
  shopOrigin: string
  accessToken: string
  phoneNumberId: string
  appSecret: string
  verifyToken: string
  deliver?: DeliverWebhook
}

/** The test secrets `npm start` gives the shop when no WhatsApp keys are set. */
export const WHATSAPP_SANDBOX_SECRETS = {
  accessToken: 'sandbox-whatsapp-system-user-token',
  phoneNumberId: '100000000000001',
  appSecret: 'sandbox-whatsapp-app-secret',
  verifyToken: 'sandbox-whatsapp-verify-token',
}
const VERSION = 'v21.0'
const BUSINESS_NUMBER = '15550001234'

/** The shop's WhatsApp settings for a stand-in at `origin`. */
export function whatsappSandboxVars(origin: string): Record<string, string> {
  return {
    WHATSAPP_API_BASE: origin,
    WHATSAPP_API_VERSION: VERSION,
    WHATSAPP_ACCESS_TOKEN: WHATSAPP_SANDBOX_SECRETS.accessToken,
    WHATSAPP_PHONE_NUMBER_ID: WHATSAPP_SANDBOX_SECRETS.phoneNumberId,
    WHATSAPP_APP_SECRET: WHATSAPP_SANDBOX_SECRETS.appSecret,
    WHATSAPP_VERIFY_TOKEN: WHATSAPP_SANDBOX_SECRETS.verifyToken,
  }
}

interface SbMessage {
  id: string
  to: string
  template: string
  text: string
  buttons: { text: string; payload: string | null }[]
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed'
  at: number
  replies: string[]
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** Meta's error shape. */
const metaError = (status: number, code: number, message: string, type = 'OAuthException') =>
  json(
    {
      error: {
        message,
        type,
        code,
        error_subcode: undefined,
        fbtrace_id: `sandbox${Math.random().toString(36).slice(2, 12)}`,
      },
    },
    status,
  )

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const wamid = () =>
  `wamid.SB${[...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

export function createWhatsAppSandbox(opts: WhatsAppSandboxOptions) {
  const messages: SbMessage[] = []
  /** Phones that cannot be reached (a test makes one undeliverable: error 131026). */
  const unreachable = new Set<string>()
  let handshake = 'not tried yet'
  let clock = Math.floor(Date.now() / 1000)
  const stamp = () => {
    clock += 1
    return String(clock)
  }
  const deliver =
    opts.deliver ??
    ((url: string, init: { method: 'POST'; headers: Record<string, string>; body: string }) =>
      fetch(url, init))

  /** Signs and sends one notification with these statuses / messages. */
  async function notify(value: { statuses?: unknown[]; messages?: unknown[]; contacts?: unknown[] }) {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '200000000000001',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: BUSINESS_NUMBER, phone_number_id: opts.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    })
    return deliver(`${opts.shopOrigin}/api/messages/whatsapp/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${await hmacHex(opts.appSecret, body)}`,
      },
      body,
    })
  }

  /** Reports a status of a message (and records it as the phone's current state). */
  function status(id: string, to: 'sent' | 'delivered' | 'read' | 'failed') {
    const m = messages.find((x) => x.id === id)
    if (!m) return Promise.resolve()
    m.status = to
    return notify({
      statuses: [
        {
          id,
          status: to,
          timestamp: stamp(),
          recipient_id: m.to,
          ...(to === 'failed' ? { errors: [{ code: 131026, title: 'Message undeliverable' }] } : {}),
        },
      ],
    })
  }

  /** The phone presses a message's quick-reply button `index`. */
  function pressButton(id: string, index: number) {
    const m = messages.find((x) => x.id === id)
    const button = m?.buttons[index]
    if (!m || !button?.payload) return Promise.resolve()
    m.replies.push(button.text)
    return notify({
      contacts: [{ profile: { name: 'Test shopper' }, wa_id: m.to }],
      messages: [
        {
          from: m.to,
          id: wamid(),
          timestamp: stamp(),
          type: 'button',
          button: { payload: button.payload, text: button.text },
          context: { from: BUSINESS_NUMBER, id: m.id },
        },
      ],
    })
  }

  /** The phone writes a text (STOP, START…). */
  function replyText(phone: string, text: string) {
    return notify({
      contacts: [{ profile: { name: 'Test shopper' }, wa_id: phone }],
      messages: [{ from: phone, id: wamid(), timestamp: stamp(), type: 'text', text: { body: text } }],
    })
  }

  /** The verification handshake Meta makes when the callback URL is saved in the app dashboard. */
  async function verifyShop(): Promise<string> {
    const challenge = String(Math.floor(Math.random() * 1e9))
    const url = `${opts.shopOrigin}/api/messages/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(opts.verifyToken)}&hub.challenge=${challenge}`
    try {
      const res = await fetch(url)
      const text = await res.text()
      handshake = res.status === 200 && text === challenge ? 'verified' : `refused (${res.status})`
    } catch (err) {
      handshake = `shop unreachable (${String(err)})`
    }
    return handshake
  }

  async function send(req: Request, version: string, phoneNumberId: string): Promise<Response> {
    if (req.headers.get('authorization') !== `Bearer ${opts.accessToken}`)
      return metaError(401, 190, 'Invalid OAuth access token - Cannot parse access token')
    if (phoneNumberId !== opts.phoneNumberId || version !== VERSION)
      return metaError(
        400,
        100,
        `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`,
        'GraphMethodException',
      )
    const b = (await req.json().catch(() => null)) as Record<string, unknown> | null
    if (b?.messaging_product !== 'whatsapp')
      return metaError(400, 100, '(#100) The parameter messaging_product is required.')
    const to = String(b.to ?? '')
    if (!/^\d{8,15}$/.test(to)) return metaError(400, 131009, '(#131009) Parameter value is not valid')
    if (b.type !== 'template')
      // Free-form messages need a customer service window this stand-in never has open.
      return metaError(
        400,
        131047,
        'Re-engagement message: more than 24 hours have passed since the customer last replied',
      )
    const tpl = (b.template ?? {}) as { name?: string; language?: { code?: string }; components?: unknown[] }
    const def = (Object.values(TEMPLATES) as TemplateDef[]).find((d) => d.name === tpl.name)
    if (!def || tpl.language?.code !== def.language)
      return metaError(404, 132001, `(#132001) Template name does not exist in the translation`)
    const components = (Array.isArray(tpl.components) ? tpl.components : []) as {
      type?: string
      sub_type?: string
      index?: string
      parameters?: { type?: string; text?: string; payload?: string }[]
    }[]
    const body = components.find((c) => c.type === 'body')
    const values = (body?.parameters ?? []).map((p) => String(p.text ?? ''))
    if (values.length !== variableCount(def) || values.some((v) => v === '' || /[\n\t]| {4}/.test(v)))
      return metaError(
        400,
        132000,
        '(#132000) Number of parameters does not match the expected number of params',
      )
    if (unreachable.has(to)) return metaError(400, 131026, '(#131026) Message undeliverable')
    const m: SbMessage = {
      id: wamid(),
      to,
      template: def.name,
      text: renderTemplate(def, values),
      buttons: def.quickReplies.map((text, i) => ({
        text,
        payload:
          components.find((c) => c.type === 'button' && c.sub_type === 'quick_reply' && c.index === String(i))
            ?.parameters?.[0]?.payload ?? null,
      })),
      status: 'accepted',
      at: Date.now(),
      replies: [],
    }
    messages.push(m)
    return json({
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: m.id, message_status: 'accepted' }],
    })
  }

  function testPage(): Response {
    const phones = [...new Set(messages.map((m) => m.to))]
    const sections = phones
      .map((phone) => {
        const rows = messages
          .filter((m) => m.to === phone)
          .map(
            (m) => `<li class="msg" data-template="${esc(m.template)}"><p>${esc(m.text)}</p>
<small>${esc(m.template)} · ${esc(m.status)}${m.replies.length ? ` · replied: ${esc(m.replies.join(', '))}` : ''}</small>
<form method="post" action="/test/press"><input type="hidden" name="id" value="${esc(m.id)}">${m.buttons
              .map((b, i) => (b.payload ? `<button name="index" value="${i}">${esc(b.text)}</button>` : ''))
              .join('')}</form>
<form method="post" action="/test/status"><input type="hidden" name="id" value="${esc(m.id)}"><button name="to" value="delivered">Mark delivered</button><button name="to" value="read">Mark read</button><button name="to" value="failed">Mark failed</button></form></li>`,
          )
          .join('')
        return `<section><h2>+${esc(phone)}</h2><ul>${rows}</ul>
<form method="post" action="/test/text"><input type="hidden" name="phone" value="${esc(phone)}"><button name="text" value="STOP">Reply STOP</button><button name="text" value="START">Reply START</button></form></section>`
      })
      .join('')
    return new Response(
      `<!doctype html><meta charset="utf-8"><title>TEST WhatsApp</title>
<style>body{font:15px system-ui,sans-serif;margin:0}.banner{background:#b71c1c;color:#fff;padding:.6rem 1rem;font-weight:700}main{padding:1rem;max-width:44rem}.msg{background:#dcf8c6;border-radius:8px;padding:.5rem .8rem;margin:.5rem 0;list-style:none}button{margin:.2rem .3rem 0 0}</style>
<div class="banner" role="alert">TEST MODE — local WhatsApp stand-in. No real message is sent.</div>
<main><h1>TEST WhatsApp</h1><p>Webhook handshake with the shop: <b id="handshake">${esc(handshake)}</b>
<form method="post" action="/test/verify" style="display:inline"><button>Verify again</button></form></p>
${sections || '<p>No messages yet.</p>'}</main>`,
      { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
    )
  }

  const back = () => new Response(null, { status: 303, headers: { location: '/test' } })

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    const path = url.pathname
    if (path === '/test' && req.method === 'GET') return testPage()
    if (req.method === 'POST' && path.startsWith('/test/')) {
      const form = await req.formData()
      const field = (name: string) => String(form.get(name) ?? '')
      if (path === '/test/press') await pressButton(field('id'), Number(field('index')))
      else if (path === '/test/status') {
        const to = field('to')
        if (to === 'delivered' || to === 'read' || to === 'failed') await status(field('id'), to)
      } else if (path === '/test/text') await replyText(field('phone'), field('text').slice(0, 100))
      else if (path === '/test/verify') await verifyShop()
      return back()
    }
    const sendPath = path.match(/^\/(v\d+\.\d+)\/([^/]+)\/messages$/)
    if (sendPath && req.method === 'POST') {
      const answer = await send(req, sendPath[1] as string, decodeURIComponent(sendPath[2] as string))
      if (answer.ok) {
        const m = messages[messages.length - 1] as SbMessage
        await status(m.id, 'sent')
      }
      return answer
    }
    return metaError(404, 803, `Unknown path components: ${path}`, 'OAuthException')
  }

  return {
    fetch: handle,
    status,
    pressButton,
    replyText,
    verifyShop,
    /** Messages a phone received, oldest first. */
    inbox: (phone: string) => messages.filter((m) => m.to === phone),
    /** Makes a phone unreachable (sends to it answer 131026). */
    setUnreachable(phone: string, value = true) {
      if (value) unreachable.add(phone)
      else unreachable.delete(phone)
    },
  }
}
