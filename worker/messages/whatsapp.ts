/**
 * The WhatsApp Business Cloud API, as the shop uses it: template sends
 * (POST {base}/{version}/{phone-number-id}/messages, `Authorization: Bearer <token>`,
 * `messaging_product: "whatsapp"`, `type: "template"`), and the verification of its webhooks
 * (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`).
 */
import { hmacMatches } from '../api/payment/signature'
import type { WhatsAppConfig } from './config'
import { TEMPLATES, type TemplateName, variableCount } from './templates'

/** What an outbox row holds for one template send. */
export interface TemplateSend {
  template: TemplateName
  /** The body variables {{1}}, {{2}}… in order. */
  values: string[]
  /** One payload per quick-reply button of the template, in order. */
  payloads?: string[]
}

/** The longest variable text sent (Meta refuses long parameters; a name or link never needs more). */
const MAX_VALUE_CHARS = 300

/**
 * A template variable as Meta accepts it: no new lines or tabs, never four spaces in a row, and
 * never empty (a parameter must have text).
 */
function paramText(value: string): string {
  const flat = value
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {4,}/g, '   ')
    .trim()
    .slice(0, MAX_VALUE_CHARS)
  return flat === '' ? '-' : flat
}

/** The JSON body of one template send to `to` (E.164 digits). */
function templateRequestBody(to: string, send: TemplateSend) {
  const def = TEMPLATES[send.template]
  const count = variableCount(def)
  const components: Record<string, unknown>[] = []
  if (count > 0)
    components.push({
      type: 'body',
      parameters: Array.from({ length: count }, (_, i) => ({
        type: 'text',
        text: paramText(send.values[i] ?? ''),
      })),
    })
  def.quickReplies.forEach((_, i) => {
    const payload = send.payloads?.[i]
    if (payload)
      components.push({
        type: 'button',
        sub_type: 'quick_reply',
        index: String(i),
        parameters: [{ type: 'payload', payload }],
      })
  })
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: { name: def.name, language: { code: def.language }, components },
  }
}

/** The request of one template send (the outbox makes it through fetchOutbound). */
export function templateRequest(cfg: WhatsAppConfig, to: string, send: TemplateSend) {
  return {
    url: `${cfg.base}/${encodeURIComponent(cfg.version)}/${encodeURIComponent(cfg.phoneNumberId)}/messages`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.accessToken}` },
      body: JSON.stringify(templateRequestBody(to, send)),
    },
  }
}

/** The message id (wamid) in a send's 200 answer, if there is one. */
export function sentMessageId(answer: string): string | null {
  try {
    const id = (JSON.parse(answer) as { messages?: { id?: unknown }[] }).messages?.[0]?.id
    return typeof id === 'string' && id.length <= 200 ? id : null
  } catch {
    return null
  }
}

/** True when `header` ("sha256=<hex>") is the app secret's HMAC-SHA256 of exactly these bytes. */
export function webhookSignatureValid(appSecret: string, raw: Uint8Array, header: string | null | undefined) {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return Promise.resolve(false)
  return hmacMatches(appSecret, raw, header.slice('sha256='.length))
}
