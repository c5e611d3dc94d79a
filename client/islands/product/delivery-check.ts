/**
 * Delivery by PIN code on the product page: a well-formed Indian PIN is looked up in the courier's
 * serviceable table (GET /api/checkout/cod) and answered with the product's estimated delivery date
 * and whether cash on delivery goes there. Loaded on the first check, outside the page's budget.
 */
import { codUnavailableMessage, PINCODE_RE } from '@shared/config/checkout'
import { MSG, msgDeliveryBy, PRODUCT_EXTRA_MSG } from '@shared/i18n/messages'
import { apiRaw } from '../../api'

/** The sentence to show for `pin` (or why it cannot be checked). */
async function deliveryFor(pin: string, deliveryDate: string | null): Promise<{ ok: boolean; text: string }> {
  const code = pin.trim()
  if (!PINCODE_RE.test(code)) return { ok: false, text: PRODUCT_EXTRA_MSG.pinInvalid }
  try {
    const { status, body } = await apiRaw('/api/checkout/cod', { query: { postcode: code, country: 'IN' } })
    const result = (body as { result?: { available?: boolean } | string }).result
    if (status !== 200 || typeof result !== 'object') {
      return { ok: false, text: typeof result === 'string' ? result : MSG.reviewFailed }
    }
    const cod = result.available
      ? PRODUCT_EXTRA_MSG.codAvailable
      : (codUnavailableMessage('IN', code, false) ?? '')
    return { ok: true, text: `${deliveryDate ? msgDeliveryBy(code, deliveryDate) : ''} ${cod}`.trim() }
  } catch {
    return { ok: false, text: PRODUCT_EXTRA_MSG.offlineTryAgain }
  }
}

/** Answers a submitted PIN form: its input's PIN, its data-delivery date, the answer in its status line. */
export async function answerPinForm(form: HTMLFormElement): Promise<void> {
  const input = form.querySelector('input')
  const out = form.querySelector('[role="status"]')
  if (!input || !out) return
  const answer = await deliveryFor(input.value, form.dataset.delivery || null)
  out.textContent = answer.text
  out.className = answer.ok ? 'pin-check__answer' : 'pin-check__answer form-error'
  input.setAttribute('aria-invalid', String(!answer.ok))
}
