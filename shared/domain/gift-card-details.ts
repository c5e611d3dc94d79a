/**
 * An e-gift card's delivery: who it is for, a message, and the day it is e-mailed. The shopper
 * gives them on the card's product page as four optional text options whose titles are the labels
 * below (the catalogue's custom options; an operator who renames one turns that detail off). The
 * rules:
 * - no recipient's e-mail: the code goes to the buyer, as soon as the order is paid;
 * - a recipient's e-mail needs a name (the mail says who the card is for) and must be an address;
 * - the send date is a day of the shop's calendar (Asia/Kolkata), from today to a year ahead, and
 *   needs a recipient; empty means as soon as the order is paid. The card is mailed at 09:00 shop
 *   time on that day (or at once when paid later than that);
 * - the message is at most 250 characters, one paragraph of plain text.
 */
import { formatDeliveryDate } from './availability'

/** A line that is a gift card: a virtual product sold as a gift card. */
export const isGiftCard = (it: { product_type?: string; name?: string }) =>
  it.product_type === 'virtual' && /gift\s*card/i.test(it.name ?? '')

/** The custom options' titles, as the catalogue names them. */
export const GIFT_CARD_LABELS = {
  name: "Recipient's name",
  email: "Recipient's e-mail (leave empty to receive the code yourself)",
  message: 'Your message (up to 250 characters)',
  sendOn: 'Send on (DD-MM-YYYY; empty sends it once paid)',
} as const

const MAX_NAME = 80
const MAX_MESSAGE = 250
const MAX_DAYS_AHEAD = 365
/** The hour of the shop's day a dated card is mailed at. */
export const GIFT_SEND_HOUR = '09:00'

export interface GiftCardDetails {
  name: string
  email: string
  message: string
  /** The shop's calendar day 'YYYY-MM-DD', or null for "once paid". */
  sendOn: string | null
}

/** The details a line's options carry ({label, value} as the order keeps them), or null when none. */
export function giftDetailsFromOptions(
  options: readonly { label: string; value: string }[] | null | undefined,
): { details: GiftCardDetails; sendOnText: string } | null {
  const byLabel = new Map((options ?? []).map((o) => [o.label, String(o.value ?? '')]))
  const pick = (label: string) => (byLabel.get(label) ?? '').replace(/\s+/g, ' ').trim()
  const name = pick(GIFT_CARD_LABELS.name)
  const email = pick(GIFT_CARD_LABELS.email)
  const message = pick(GIFT_CARD_LABELS.message)
  const sendOnText = pick(GIFT_CARD_LABELS.sendOn)
  if (!name && !email && !message && !sendOnText) return null
  return { details: { name, email, message, sendOn: parseShopDay(sendOnText) }, sendOnText }
}

/** A day typed as DD-MM-YYYY, DD/MM/YYYY, DD.MM.YYYY or YYYY-MM-DD → 'YYYY-MM-DD'; null when not a day. */
function parseShopDay(text: string): string | null {
  const t = text.trim()
  const dmy = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(t)
  const ymd = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t)
  const [y, m, d] = dmy ? [dmy[3], dmy[2], dmy[1]] : ymd ? [ymd[1], ymd[2], ymd[3]] : []
  if (!y || !m || !d) return null
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)))
  // A day the calendar does not have (31-04, 29-02 of a common year) is not rolled over.
  if (day.getUTCDate() !== Number(d) || day.getUTCMonth() !== Number(m) - 1) return null
  return day.toISOString().slice(0, 10)
}

const dayNumber = (ymd: string) => Date.parse(`${ymd}T00:00:00Z`) / 86_400_000

/**
 * Why a card's details cannot be used, in words, or null. `today` is the shop's calendar day;
 * `placing` relaxes the date rule for a bag kept since the day passed (it is then sent at once).
 */
export function giftDetailsProblem(
  found: ReturnType<typeof giftDetailsFromOptions>,
  today: string,
  placing = false,
): string | null {
  if (!found) return null
  const { details: d, sendOnText } = found
  if (d.email) {
    if (d.email.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(d.email))
      return `Please check the recipient's e-mail: "${d.email.slice(0, 60)}" is not an e-mail address.`
    if (!d.name) return "Please add the recipient's name: the e-mail tells them who the card is from and for."
  } else if (d.name || sendOnText) {
    return "Please add the recipient's e-mail, or leave the name and date empty to receive the code yourself."
  }
  if (d.name.length > MAX_NAME) return `The recipient's name can be at most ${MAX_NAME} characters.`
  if (d.message.length > MAX_MESSAGE) return `The message can be at most ${MAX_MESSAGE} characters.`
  if (sendOnText && !d.sendOn)
    return `Please write the send date as day-month-year, for example ${exampleDay(today)}.`
  if (d.sendOn) {
    const ahead = dayNumber(d.sendOn) - dayNumber(today)
    if (ahead < 0 && !placing) return 'The send date has passed: please choose today or a later day.'
    if (ahead > MAX_DAYS_AHEAD) return 'The send date can be at most a year from today.'
  }
  return null
}

/** A day a week after `today` as DD-MM-YYYY (the example the date rule gives). */
function exampleDay(today: string): string {
  const d = new Date(Date.parse(`${today}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10)
  return d.split('-').reverse().join('-')
}

/** A shop day in words, as every date a shopper reads ('14th of February, 2027'). */
export const shopDayInWords = (ymd: string) => formatDeliveryDate(new Date(`${ymd}T00:00:00Z`))
