/**
 * The WhatsApp message templates the shop sends. Each must be created and approved in WhatsApp
 * Manager under exactly this name, language and category (UTILITY: order updates) with this body,
 * its variables {{1}}, {{2}}… in this order, and its quick-reply buttons in this order. The shop
 * sends the name and the variables; Meta holds the text. The local WhatsApp stand-in loads this
 * same list as its "approved" templates, so a send it accepts is one Meta would accept.
 *
 * Free of imports: the stand-in (run by Node) loads this module as it is.
 */

export interface TemplateDef {
  name: string
  category: 'UTILITY'
  language: 'en'
  /** The approved body; {{n}} are the variables. */
  body: string
  /** Quick-reply buttons in order (their payloads are set per send). */
  quickReplies: readonly string[]
}

const t = (name: string, body: string, quickReplies: readonly string[] = []): TemplateDef => ({
  name,
  category: 'UTILITY',
  language: 'en',
  body,
  quickReplies,
})

export const TEMPLATES = {
  order_placed: t(
    'order_placed',
    'Thank you for your order {{1}} of {{2}}. We will message you here when it ships. Reply STOP to stop these messages.',
  ),
  cod_confirmation: t(
    'cod_confirmation',
    'Please confirm your cash-on-delivery order {{1}} of {{2}}. We pack it once you confirm; unconfirmed, it is released on {{3}}. Reply STOP to stop these messages.',
    ['Confirm', 'Cancel'],
  ),
  payment_received: t(
    'payment_received',
    'We have received your payment of {{2}} for order {{1}}. We are preparing it.',
  ),
  order_shipped: t('order_shipped', 'Your order {{1}} is on its way with {{2}}, tracking number {{3}}.'),
  out_for_delivery: t(
    'out_for_delivery',
    'Your order {{1}} is out for delivery today. Please keep your phone at hand for the courier.',
  ),
  order_delivered: t('order_delivered', 'Your order {{1}} has been delivered. We hope you love it.'),
  delivery_failed: t(
    'delivery_failed',
    'The courier could not deliver your order {{1}}. Shall we try again?',
    ['Deliver again', 'Call me'],
  ),
  refund_processed: t(
    'refund_processed',
    'We have refunded {{2}} for order {{1}}. Refunds usually reach your account within 5–7 working days.',
  ),
  back_in_stock: t('back_in_stock', '{{1}} is back in stock: {{2}}'),
  pay_now_link: t(
    'pay_now_link',
    'Pay {{2}} for order {{1}} online now instead of cash on delivery: {{3}} (the link works until {{4}}).',
  ),
  pay_now_link_saving: t(
    'pay_now_link_saving',
    'Pay {{2}} for order {{1}} online now instead of cash on delivery. You save {{3}}. Pay here: {{4}} (the link works until {{5}}).',
  ),
  cart_reminder: t('cart_reminder', 'You left {{1}} in your bag. It is waiting for you here: {{2}}'),
} as const satisfies Record<string, TemplateDef>

export type TemplateName = keyof typeof TEMPLATES

/** The variables a template takes: the highest {{n}} in its body. */
export function variableCount(def: TemplateDef): number {
  return Math.max(0, ...[...def.body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])))
}

/** A template's body with its variables filled in (what the phone shows). */
export function renderTemplate(def: TemplateDef, values: readonly string[]): string {
  return def.body.replace(/\{\{(\d+)\}\}/g, (_, n) => values[Number(n) - 1] ?? '')
}
