/**
 * An order mail's words and both its parts, plain text and HTML, from what the order holds (no
 * database here: worker/api/mail/notify.ts gathers the order and sends).
 *
 * The shopper's mail says what happened first (the operator's own opening text when edited),
 * then the event's details (carrier, tracking), the order's number and state, its lines with their
 * pictures and what was chosen, its money rows in the order's currency with the shop's formatter,
 * the payment, the addresses with country names, the closing note when edited, and the links: the
 * order page, the tracking page, the tax invoice and, for a cash-on-delivery order to confirm, the
 * signed confirmation page. Until the order is paid or confirmed (`withheld`), no address and no
 * text the placer typed appears. The merchant's copy names the customer and everything.
 */
import { documentMoneyRows } from '@shared/components/order/money-rows'
import { orderDateTime } from '@shared/components/order/order-text'
import { CASH_ON_DELIVERY_CODE, countryName } from '@shared/config/checkout'
import { IMAGE_SIZES } from '@shared/config/images'
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import { formatPrice } from '@shared/domain/currency'
import { imageUrl } from '@shared/domain/image-url'
import type { MailLine } from '../api/mail/order-lines'
import { oneLine } from '../api/mail/order-lines'
import { DETAIL_LABELS, MAX_DETAIL_FIELDS, type OrderMailEvent, SUBJECTS } from '../api/mail/order-words'
import type { OrderDocument, OrderDocumentAddress } from '../api/order/document'
import type { OrderRow } from '../api/order/repo'
import {
  blockHtml,
  blockText,
  fillPlaceholders,
  type MailTemplateText,
  type PlaceholderValues,
  paragraphs,
} from './blocks'
import {
  addressBlock,
  button,
  facts,
  heading,
  lineTable,
  mailDocument,
  mailto,
  moneyTable,
  paragraph,
  paragraphHtml,
  STYLES,
} from './html'

type MailOrder = Pick<
  OrderRow,
  | 'increment_id'
  | 'status'
  | 'payment_state'
  | 'payment_method'
  | 'paid_minor'
  | 'refunded_minor'
  | 'grand_total_minor'
  | 'expires_at'
  | 'currency'
  | 'customer_email'
  | 'customer_id'
>

export interface OrderMailInput {
  event: OrderMailEvent
  order: MailOrder
  doc: OrderDocument
  lines: readonly MailLine[]
  /** The payment state and method in words. */
  payment: string
  /** The order is not paid or confirmed yet: no address, no text the placer typed. */
  withheld: boolean
  /** The shopper's signed order page. */
  orderLink: string
  /** The tax invoice's number, when the order has one. */
  invoice: string | null
  /** The signed page that confirms a cash-on-delivery order, when it waits for that. */
  codLink: string | null
  /** What the event adds (carrier, tracking number, tracking_url, reason…). */
  detail: Record<string, string>
  shop: { name: string; origin: string; supportEmail: string }
  /** The operator's edited words for this event, if any. */
  custom?: MailTemplateText | null
}

interface RenderedMail {
  subject: string
  text: string
  html: string
}

/** An amount in minor units of the order's currency, with the shop's formatter. */
const moneyOf = (order: MailOrder) => (minor: number) =>
  formatPrice(minor / 100, order.currency, { convert: false })

const isCashOnDelivery = (order: MailOrder) => order.payment_method === CASH_ON_DELIVERY_CODE

/** An address as lines: name, street, postcode and city, region, country name, phone. */
function addressLines(a: OrderDocumentAddress | null | undefined): string[] {
  if (!a) return []
  return [
    [a.firstname, a.lastname].filter(Boolean).join(' '),
    ...(a.street ?? []),
    [a.postcode, a.city].filter(Boolean).join(' '),
    a.region ?? '',
    countryName(a.country_id),
    a.telephone ? `Phone ${a.telephone}` : '',
  ]
    .map((l) => oneLine(l, 200))
    .filter((l) => l !== '')
}

/** The event's detail fields as label–value pairs, one line each (the tracking URL is a link). */
function detailPairs(detail: Record<string, string>): [string, string][] {
  return Object.entries(detail)
    .slice(0, MAX_DETAIL_FIELDS)
    .map(([k, v]) => [DETAIL_LABELS[k] ?? oneLine(k.replace(/[_-]+/g, ' '), 40), oneLine(v, 200)] as const)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => [`${k.charAt(0).toUpperCase()}${k.slice(1)}`, v])
}

/** The shop's default opening: what happened, in a sentence or two. */
function defaultIntro(event: OrderMailEvent, order: MailOrder): string[] {
  const money = moneyOf(order)
  switch (event) {
    case 'placed':
      if (order.payment_state === 'awaiting')
        return ['Thank you for your order. It is reserved for you until your payment arrives.']
      if (order.status === 'pending' && order.expires_at !== null)
        return [
          `Thank you for your order. We will confirm it with you before we pack it; if it is not confirmed by ${orderDateTime(order.expires_at)}, it expires and its items go back on sale.`,
        ]
      return ['Thank you for your order. We will let you know as soon as it ships.']
    case 'paid':
      return [`We have received your payment of ${money(order.paid_minor)}. We are preparing your order.`]
    case 'payment_failed':
      return ['Your payment did not go through. You can try again from your order page.']
    case 'shipped':
      return ['Your order is on its way.']
    case 'delivered':
      return ['Your order has been delivered. We hope you love it.']
    case 'canceled':
      return order.paid_minor > order.refunded_minor
        ? [
            'Your order has been canceled. The money you paid will be refunded; you will get a mail when it is.',
          ]
        : ['Your order has been canceled.']
    case 'expired':
      return isCashOnDelivery(order)
        ? ['Your order was not confirmed in time, so it has expired and its items are available again.']
        : ['Your order was not paid in time, so it has expired and its items are available again.']
    case 'out_for_delivery':
      return ['Your order is out for delivery today. Please keep your phone at hand for the courier.']
    case 'undelivered':
      return [
        'The courier could not deliver your order. They will try again; reply to this mail if you would like another day or address.',
      ]
    case 'rto':
      return ['Your order could not be delivered and is coming back to us. We will write when it arrives.']
    case 'returned':
      return ['Your order has come back to us.']
    case 'cod_collected':
      return [`The courier has collected ${money(order.paid_minor)} in cash for your order. Thank you.`]
    case 'return_requested':
      return ['We have booked the courier to pick up your return. Please pack the pieces with their tags on.']
    case 'return_picked_up':
      return ['The courier has picked up your return. We will inspect it when it arrives.']
    case 'return_received':
      return ['Your return has arrived and been inspected.']
    case 'return_rejected':
      return ['Your return did not pass our inspection; the pieces will be sent back to you.']
    case 'exchange_shipped':
      return ['Your exchange is on its way, at no extra cost.']
    case 'refunded':
      return [
        order.refunded_minor >= order.paid_minor
          ? `We have refunded the full ${money(order.refunded_minor)} you paid.`
          : `We have refunded ${money(order.refunded_minor)} of the ${money(order.paid_minor)} you paid.`,
        'Refunds usually reach your account within 5–7 working days.',
      ]
  }
}

/** What the placeholders of an edited block become for this order. */
function placeholderValues(input: Pick<OrderMailInput, 'order' | 'shop'>): PlaceholderValues {
  const money = moneyOf(input.order)
  return {
    order: input.order.increment_id,
    total: money(input.order.grand_total_minor ?? 0),
    paid: money(input.order.paid_minor),
    refunded: money(input.order.refunded_minor),
    deadline: input.order.expires_at === null ? '' : orderDateTime(input.order.expires_at),
    shop: input.shop.name,
  }
}

/** Everything both parts show, in order. */
function content(input: OrderMailInput) {
  const { order, doc } = input
  const money = moneyOf(order)
  const values = placeholderValues(input)
  const edited = (text: string | null | undefined) =>
    text ? paragraphs(fillPlaceholders(text, values)) : null
  const shipping = addressLines(doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address)
  const billing = addressLines(doc.billing_address)
  return {
    subject: input.custom?.subject
      ? oneLine(fillPlaceholders(input.custom.subject, values), 200)
      : SUBJECTS[input.event](order.increment_id),
    /** Paragraphs with **bold** markers (the defaults have none). */
    intro: edited(input.custom?.intro) ?? defaultIntro(input.event, order),
    note: edited(input.custom?.note) ?? [],
    details: detailPairs(input.detail).filter(([k]) => k !== DETAIL_LABELS.tracking_url),
    trackingUrl: input.detail.tracking_url ?? null,
    status: ORDER_STATUS_LABELS[order.status as OrderStatus] ?? order.status,
    // Stored line totals are in the order's charge currency (major units), like every amount.
    lines: input.lines.map((l) => ({
      ...l,
      amount: l.rowTotal !== null ? formatPrice(l.rowTotal, order.currency, { convert: false }) : null,
      picture: l.image
        ? `${input.shop.origin}${imageUrl(l.image, IMAGE_SIZES.cart.width, IMAGE_SIZES.cart.height)}`
        : null,
    })),
    // The order's money, row by row (store credit and a gift card spent through it included).
    money: documentMoneyRows(doc).map((r) => ({
      title: r.title,
      amount: `${r.minor < 0 ? '−' : ''}${money(Math.abs(r.minor))}`,
    })),
    shipping: input.withheld ? [] : shipping,
    // The billing address when it is another one than the delivery address.
    billing: input.withheld || billing.join('\n') === shipping.join('\n') ? [] : billing,
    // The order page reads its key and `doc` from the link's fragment.
    invoiceLink: input.invoice
      ? `${input.orderLink}${input.orderLink.includes('#') ? '&' : '#'}doc=invoice`
      : null,
  }
}

const WITHHELD_NOTE = 'The delivery address and anything you wrote for this order are on your order page.'

/** The summary lines of the plain-text part (the merchant's copy has them too). */
function summaryText(c: ReturnType<typeof content>, payment: string, withheld: boolean): string[] {
  return [
    'Items:',
    ...c.lines.flatMap((l) => [
      `  ${l.qty} × ${l.name}${l.amount !== null ? ` — ${l.amount}` : ''}`,
      ...l.chosen.map((o) => `      ${o.label}: ${o.value}`),
    ]),
    '',
    ...c.money.map((r) => `${r.title}: ${r.amount}`),
    `Payment: ${payment}`,
    ...(c.shipping.length ? ['', 'Delivery address:', ...c.shipping.map((l) => `  ${l}`)] : []),
    ...(c.billing.length ? ['', 'Billing address:', ...c.billing.map((l) => `  ${l}`)] : []),
    ...(withheld ? ['', WITHHELD_NOTE] : []),
  ]
}

/** The summary pieces of the HTML part. */
function summaryHtml(c: ReturnType<typeof content>, payment: string, withheld: boolean): string[] {
  return [
    lineTable(c.lines),
    moneyTable(c.money),
    facts([['Payment', payment]]),
    ...(c.shipping.length ? [heading('Delivery address'), addressBlock(c.shipping)] : []),
    ...(c.billing.length ? [heading('Billing address'), addressBlock(c.billing)] : []),
    ...(withheld ? [paragraph(WITHHELD_NOTE, STYLES.muted)] : []),
  ]
}

/** The shopper's mail of an order event: subject, plain text and HTML. */
export function renderOrderMail(input: OrderMailInput): RenderedMail {
  const c = content(input)
  const { order, shop } = input
  const text = [
    c.intro.map(blockText).join(input.custom?.intro ? '\n\n' : '\n'),
    // A cash-on-delivery order waiting for the shopper: the signed link that confirms it.
    ...(input.codLink ? ['', `Confirm it (or cancel it) here: ${input.codLink}`] : []),
    ...(c.details.length || c.trackingUrl
      ? ['', ...detailPairs(input.detail).map(([k, v]) => `${k}: ${v}`)]
      : []),
    '',
    `Order ${order.increment_id} — ${c.status}`,
    '',
    ...summaryText(c, input.payment, input.withheld),
    ...(c.note.length ? ['', c.note.map(blockText).join('\n\n')] : []),
    '',
    `Your order: ${input.orderLink}`,
    // The invoice opens from the order page; this link asks the page to download it at once.
    ...(c.invoiceLink ? [`Your tax invoice ${input.invoice}: ${c.invoiceLink}`] : []),
    `Questions? Write to ${shop.supportEmail} and mention order ${order.increment_id}.`,
  ].join('\n')
  const html = mailDocument({
    title: c.subject,
    preheader: blockText(c.intro[0] ?? ''),
    shop: shop.name,
    body: [
      ...c.intro.map((p) => paragraphHtml(blockHtml(p))),
      ...(input.codLink ? [button(input.codLink, 'Confirm or cancel your order')] : []),
      facts(c.details),
      ...(c.trackingUrl ? [button(c.trackingUrl, 'Track your parcel', 'secondary')] : []),
      heading(`Order ${order.increment_id} — ${c.status}`),
      ...summaryHtml(c, input.payment, input.withheld),
      ...c.note.map((p) => paragraphHtml(blockHtml(p))),
      button(input.orderLink, 'View your order'),
      ...(c.invoiceLink ? [button(c.invoiceLink, `Download tax invoice ${input.invoice}`, 'secondary')] : []),
    ],
    footer: `Questions? Write to ${mailto(shop.supportEmail)} and mention order ${order.increment_id}.`,
  })
  return { subject: c.subject, text, html }
}

/** The merchant's new-order mail: the customer, everything the order holds, the back office. */
export function renderMerchantMail(
  input: Omit<OrderMailInput, 'withheld' | 'custom' | 'codLink' | 'event'> & {
    /** When the order was placed, on the shop's clock. */
    placedAt: string
  },
): RenderedMail {
  const full: OrderMailInput = { ...input, event: 'placed', withheld: false, codLink: null }
  const c = content(full)
  const { order, doc } = input
  const name = oneLine([doc.customer_firstname, doc.customer_lastname].filter(Boolean).join(' '), 200)
  const phone = doc.billing_address?.telephone
  const customer = `${name || '—'} <${order.customer_email}>${order.customer_id ? '' : ' (guest)'}`
  const subject = `New order ${order.increment_id} — ${moneyOf(order)(order.grand_total_minor ?? 0)}`
  const admin = `${input.shop.origin}/admin`
  const text = [
    `New order ${order.increment_id} (${input.placedAt})`,
    '',
    `Customer: ${customer}`,
    ...(phone ? [`Phone: ${oneLine(phone, 40)}`] : []),
    '',
    ...summaryText(c, input.payment, false),
    '',
    `Open it in the back office: ${admin}`,
  ].join('\n')
  const html = mailDocument({
    title: subject,
    preheader: `${customer}, ${c.money.at(-1)?.amount ?? ''}`,
    shop: input.shop.name,
    body: [
      heading(`New order ${order.increment_id}`),
      facts([
        ['Placed', input.placedAt],
        ['Customer', customer],
        ...(phone ? ([['Phone', oneLine(phone, 40)]] as [string, string][]) : []),
      ]),
      ...summaryHtml(c, input.payment, false),
      button(admin, 'Open the back office'),
    ],
    footer: `${input.shop.name} back office`,
  })
  return { subject, text, html }
}
