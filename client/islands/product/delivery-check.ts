/**
 * Delivery by PIN code on the product page: a well-formed Indian PIN is looked up with the courier
 * (GET /api/checkout/delivery: its serviceability, cached per PIN, the PIN table when it cannot be
 * asked) and answered with the server's sentence: the courier's delivery date (the one the
 * checkout states for the PIN) and whether cash on delivery goes there, or that the courier does
 * not deliver there. Loaded on the first check, outside the page's budget.
 */
import { PINCODE_RE } from '@shared/config/checkout'
import { MSG, PRODUCT_EXTRA_MSG } from '@shared/i18n/messages'
import { apiRaw } from '../../api'

/** The sentence to show for `pin` (or why it cannot be checked). */
async function deliveryFor(pin: string): Promise<{ ok: boolean; text: string }> {
  const code = pin.trim()
  if (!PINCODE_RE.test(code)) return { ok: false, text: PRODUCT_EXTRA_MSG.pinInvalid }
  try {
    const { status, body } = await apiRaw('/api/checkout/delivery', { query: { postcode: code } })
    const result = (body as { result?: { serviceable?: boolean; message?: string } | string }).result
    if (status !== 200 || typeof result !== 'object') {
      return { ok: false, text: typeof result === 'string' ? result : MSG.reviewFailed }
    }
    return { ok: result.serviceable === true, text: result.message ?? MSG.reviewFailed }
  } catch {
    return { ok: false, text: PRODUCT_EXTRA_MSG.offlineTryAgain }
  }
}

/** Answers a submitted PIN form: its input's PIN, the answer in its status line. */
export async function answerPinForm(form: HTMLFormElement): Promise<void> {
  const input = form.querySelector('input')
  const out = form.querySelector('[role="status"]')
  if (!input || !out) return
  const answer = await deliveryFor(input.value)
  out.textContent = answer.text
  out.className = answer.ok ? 'pin-check__answer' : 'pin-check__answer form-error'
  input.setAttribute('aria-invalid', String(!answer.ok))
}
