/**
 * What the shipping country and PIN code change at checkout, as soon as they are entered: the
 * server's totals re-priced for that country (before the review step) with its sentence saying
 * which tax the prices now include (and, at home, the shipping zone of the PIN code), and whether
 * cash on delivery is offered there (asked of /api/checkout/cod only for a well-formed Indian PIN
 * code, with the cart and the phone number so the operator's rules answer too) and by when the
 * courier delivers. An answer given before the courier answered (`pending`) is asked again.
 */
import { codUnavailableMessage, ORDER_DELIVERY_DAYS, PINCODE_RE } from '@shared/config/checkout'
import { COOKIE_COUNTRY, COOKIE_CURRENCY } from '@shared/config/store'
import { useEffect, useRef, useState } from 'react'
import { api } from '../../api'
import { getRuntime } from '../../engines/runtime/runtime'
import { type CartTotals, cartServerToken } from '../../state/cart'
import { userToken } from '../../state/user'
import { setCookie } from '../../storage/cookies'
import { pageCurrency } from '../page-currency'

interface CodAnswer {
  country: string
  postcode: string
  serviceable: boolean
  /** The server's reason when the operator's rules refuse cash on delivery for this order. */
  refusal?: string | null
  /** The courier's delivery estimate for the PIN code, in words. */
  estimate?: string | null
}

/** How often a COD answer given while the courier has not answered is asked again. */
const COURIER_RETRIES = 4

/** The COD verdict known for a country, PIN code and phone number: null while unknown (COD stays offered). */
export function useCodAnswer(country: string, postcode: string, phone = ''): CodAnswer | null {
  const [answer, setAnswer] = useState<CodAnswer | null>(null)
  useEffect(() => {
    const code = country.trim().toUpperCase()
    const pin = postcode.trim()
    if (code.length === 2 && code !== 'IN') {
      setAnswer({ country: code, postcode: pin, serviceable: false })
      return
    }
    if (code !== 'IN' || !PINCODE_RE.test(pin)) {
      setAnswer(null)
      return
    }
    let live = true
    let retry: ReturnType<typeof setTimeout> | undefined
    const cartId = cartServerToken.value
    const query = {
      postcode: pin,
      country: code,
      ...(cartId ? { cartId, token: userToken.value ?? '' } : {}),
      ...(phone.trim() ? { phone: phone.trim().slice(0, 20) } : {}),
    }
    type Answer = { available?: boolean; message?: string | null; pending?: boolean; estimate?: string }
    const ask = (tries: number) =>
      api<Answer>('/api/checkout/cod', { query })
        .then((res) => {
          if (!live || res.code !== 200) return
          const available = res.result?.available === true
          const refusal = available ? null : (res.result?.message ?? null)
          // Served but refused by the operator's rules: the server's sentence says why.
          const ruled = refusal && refusal !== codUnavailableMessage(code, pin, false)
          setAnswer({
            country: code,
            postcode: pin,
            serviceable: available || !!ruled,
            refusal: ruled ? refusal : null,
            estimate: res.result?.estimate ?? null,
          })
          // The courier has not answered yet: the PIN table's answer stands until it has.
          if (res.result?.pending && tries < COURIER_RETRIES) retry = setTimeout(() => ask(tries + 1), 1500)
        })
        .catch(() => {
          // Offline or failing: COD stays offered; the order is checked again by the server.
          if (live) setAnswer(null)
        })
    void ask(0)
    return () => {
      live = false
      clearTimeout(retry)
    }
  }, [country, postcode, phone])
  return answer
}

/**
 * Re-prices the server cart for the shipping country as soon as it is chosen, and again for a
 * complete Indian PIN code (its shipping zone), so the shipping line is known before the review (a
 * failure keeps the totals); and makes it the shopper's country: the pages after this one show its
 * prices too, in the currency the shopper has been shown.
 */
export function useTotalsForCountry(country: string, address: () => Record<string, unknown>, postcode = '') {
  // Only the country and the PIN's zone change the totals; the address itself is sent again before review.
  const latest = useRef(address)
  latest.current = address
  const pin = country.trim().toUpperCase() === 'IN' && PINCODE_RE.test(postcode.trim()) ? postcode.trim() : ''
  // biome-ignore lint/correctness/useExhaustiveDependencies: a complete PIN (its shipping zone) re-prices; the address itself is read from `latest`.
  useEffect(() => {
    if (country.trim().length !== 2) return
    setCookie(COOKIE_COUNTRY, country.trim().toUpperCase(), 365)
    // The currency stays the one shown: a country with a currency of its own does not change it.
    setCookie(COOKIE_CURRENCY, pageCurrency(), 365)
    void getRuntime()
      .cart.shippingInformation(latest.current())
      .catch(() => false)
  }, [country, pin])
}

/**
 * The sentence about the prices for a shipping country — the server's, with its totals re-priced
 * for that country — why COD is not offered (if known), and when the parcel should arrive.
 */
export function destinationNotes(country: string, cod: CodAnswer | null, totals: CartTotals | null) {
  const ext = totals?.extension_attributes as { country?: string; country_sentence?: string } | undefined
  const code = country.trim().toUpperCase()
  return {
    estimate:
      code.length === 2 && code !== 'IN'
        ? `Delivered in about ${ORDER_DELIVERY_DAYS.abroad} days.`
        : (cod?.estimate ?? null),
    sentence: ext?.country === country.trim().toUpperCase() ? (ext.country_sentence ?? null) : null,
    cod: cod ? (cod.refusal ?? codUnavailableMessage(cod.country, cod.postcode, cod.serviceable)) : null,
  }
}
