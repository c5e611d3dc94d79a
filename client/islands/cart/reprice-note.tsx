/**
 * A bag is never re-priced silently. The cart summary and the checkout's order summary remember
 * what the shopper last saw the bag priced for — the display currency and the pricing country —
 * and when either has changed since (the currency switch in the header, a "Deliver to" country, a
 * shipping address in another country), they say so in one sentence naming what changed, above
 * the lines' new prices. The sentence stays for that view; the next view has nothing to explain.
 */
import { countryInSentence } from '@shared/config/checkout'
import { currencyConfig } from '@shared/config/store'
import { useEffect, useState } from 'react'
import type { CartTotals } from '../../state/cart'
import { cartTotals } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'
import { pageCurrency } from '../page-currency'
import { pageCountry } from '../page-price'
import { inPageCurrency } from './cart-totals'

/** What a bag's prices are for: the display currency and the pricing country. */
interface BagPricing {
  currency: string
  country: string
}

/** Where the pricing the bag was last shown in is kept (this browser only). */
const STORAGE_KEY = 'bag-priced-for'

/** A currency as the sentence names it: 'GBP (£)'. */
function currencyInSentence(code: string): string {
  const known = currencyConfig(code)
  return known.code === code && known.sign !== code ? `${code} (${known.sign})` : code
}

/**
 * The sentence for a bag last seen priced for `before` and priced for `now`, or null when nothing
 * changed (or the bag was never seen): 'Your bag was re-priced: prices are now in GBP (£), not INR
 * (₹), and for the United Kingdom, not India.'
 */
export function repriceSentence(before: BagPricing | null, now: BagPricing): string | null {
  if (!before) return null
  const changed: string[] = []
  if (before.currency !== now.currency)
    changed.push(`in ${currencyInSentence(now.currency)}, not ${currencyInSentence(before.currency)}`)
  if (before.country !== now.country)
    changed.push(`for ${countryInSentence(now.country)}, not ${countryInSentence(before.country)}`)
  return changed.length ? `Your bag was re-priced: prices are now ${changed.join(', and ')}.` : null
}

/**
 * What the bag is priced for now: the page's currency, and the country the server priced the cart
 * for (the shipping country at checkout) when its totals are in that currency, else the page's.
 */
export function bagPricingNow(totals: CartTotals | null): BagPricing {
  const country = (totals?.extension_attributes as { country?: unknown } | undefined)?.country
  return {
    currency: pageCurrency(),
    country:
      inPageCurrency(totals) && typeof country === 'string' && /^[A-Z]{2}$/.test(country)
        ? country
        : pageCountry(),
  }
}

function readSeen(): BagPricing | null {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<BagPricing> | null
    return typeof v?.currency === 'string' && typeof v.country === 'string'
      ? { currency: v.currency, country: v.country }
      : null
  } catch {
    return null
  }
}

function writeSeen(p: BagPricing): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(p))
  } catch {
    // Storage refused (private mode, full): the next view has nothing to compare with.
  }
}

/** The re-price sentence of a summary with lines; nothing while the bag's pricing is unchanged. */
export function RepriceNote({ hasLines }: { hasLines: boolean }) {
  const now = bagPricingNow(useSignalValue(cartTotals))
  const [sentence, setSentence] = useState<string | null>(null)
  useEffect(() => {
    if (!hasLines) return
    const said = repriceSentence(readSeen(), { currency: now.currency, country: now.country })
    if (said) setSentence(said)
    writeSeen({ currency: now.currency, country: now.country })
  }, [hasLines, now.currency, now.country])
  if (!sentence || !hasLines) return null
  return (
    <p className="reprice-note" role="status" data-testid="reprice-note">
      {sentence}
    </p>
  )
}
