/**
 * Delivery by PIN code on the product page: a well-formed Indian PIN is looked up with the courier
 * (GET /api/checkout/delivery: its serviceability, cached per PIN, the PIN table when it cannot be
 * asked) and answered with the product's estimated delivery date and whether cash on delivery goes
 * there, or that the courier does not deliver there. Loaded on the first check, outside the page's
 * budget.
 */
import { codUnavailableMessage, PINCODE_RE } from '@shared/config/checkout'
import { MSG, msgDeliveryBy, PRODUCT_EXTRA_MSG } from '@shared/i18n/messages'
import { apiRaw } from '../../api'

/** The sentence to show for `pin` (or why it cannot be checked). */
async function deliveryFor(pin: string, deliveryDate: string | null): Promise<{ ok: boolean; text: string }> {
  const code = pin.trim()
  if (!PINCODE_RE.test(code)) return { ok: false, text: PRODUCT_EXTRA_MSG.pinInvalid }
  try {
    const { status, body } = await apiRaw('/api/checkout/delivery', { query: { postcode: code } })
    const result = (body as { result?: { serviceable?: boolean; cod?: boolean; message?: string } | string })
      .result
    if (status !== 200 || typeof result !== 'object') {
      return { ok: false, text: typeof result === 'string' ? result : MSG.reviewFailed }
    }
    if (!result.serviceable) return { ok: false, text: result.message ?? MSG.reviewFailed }
    const cod = result.cod ? PRODUCT_EXTRA_MSG.codAvailable : (codUnavailableMessage('IN', code, false) ?? '')
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
