/**
 * What the shipping country and PIN code change at checkout, as soon as they are entered: the
 * server's totals re-priced for that country (before the review step) with its sentence saying
 * which tax the prices now include, and whether cash on delivery is offered there (asked of
 * /api/checkout/cod only for a well-formed Indian PIN code).
 */
import { codUnavailableMessage, PINCODE_RE } from '@shared/config/checkout'
import { COOKIE_COUNTRY, COOKIE_CURRENCY } from '@shared/config/store'
import { useEffect, useRef, useState } from 'react'
import { api } from '../../api'
import { getRuntime } from '../../engines/runtime/runtime'
import type { CartTotals } from '../../state/cart'
import { setCookie } from '../../storage/cookies'
import { pageCurrency } from '../page-currency'

interface CodAnswer {
  country: string
  postcode: string
  serviceable: boolean
}

/** The COD verdict known for a country and PIN code: null while unknown (COD stays offered). */
export function useCodAnswer(country: string, postcode: string): CodAnswer | null {
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
    api<{ available?: boolean }>('/api/checkout/cod', { query: { postcode: pin, country: code } })
      .then((res) => {
        if (live && res.code === 200)
          setAnswer({ country: code, postcode: pin, serviceable: res.result?.available === true })
      })
      .catch(() => {
        // Offline or failing: COD stays offered; the order is checked again by the server.
        if (live) setAnswer(null)
      })
    return () => {
      live = false
    }
  }, [country, postcode])
  return answer
}

/**
 * Re-prices the server cart for the shipping country as soon as it is chosen (a failure keeps the
 * totals), and makes it the shopper's country: the pages after this one show its prices too, in
 * the currency the shopper has been shown.
 */
export function useTotalsForCountry(country: string, address: () => Record<string, unknown>) {
  // Only the country changes the prices; the address itself is sent again before review.
  const latest = useRef(address)
  latest.current = address
  useEffect(() => {
    if (country.trim().length !== 2) return
    setCookie(COOKIE_COUNTRY, country.trim().toUpperCase(), 365)
    // The currency stays the one shown: a country with a currency of its own does not change it.
    setCookie(COOKIE_CURRENCY, pageCurrency(), 365)
    void getRuntime()
      .cart.shippingInformation(latest.current())
      .catch(() => false)
  }, [country])
}

/**
 * The sentence about the prices for a shipping country — the server's, with its totals re-priced
 * for that country — and why COD is not offered (if known).
 */
export function destinationNotes(country: string, cod: CodAnswer | null, totals: CartTotals | null) {
  const ext = totals?.extension_attributes as { country?: string; country_sentence?: string } | undefined
  return {
    sentence: ext?.country === country.trim().toUpperCase() ? (ext.country_sentence ?? null) : null,
    cod: cod ? codUnavailableMessage(cod.country, cod.postcode, cod.serviceable) : null,
  }
}
