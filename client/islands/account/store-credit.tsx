/**
 * The account's store credit: the balance, "Redeem a gift card" (its value becomes store credit,
 * once) and the ledger's transactions in words, newest first.
 */
import { useCallback, useEffect, useState } from 'react'
import { GiftCardField } from '../checkout/steps/gift-card-field'
import { formatPagePrice } from '../page-price'
import { userGet } from './account-api'
import { formatServerDate } from './account-model'

interface CreditItem {
  id?: number | string
  amount: number
  comment?: string | null
  created_at?: string
  balance?: number
}

export function StoreCredit() {
  const [data, setData] = useState<{ items: CreditItem[]; total_balance: number } | null | 'error'>(null)
  const load = useCallback(() => {
    void userGet<{ items?: CreditItem[]; total_balance?: number }>('giftcard/store-credit-transaction')
      .then((r) =>
        setData(
          r.code === 200 && r.result
            ? { items: r.result.items ?? [], total_balance: r.result.total_balance ?? 0 }
            : 'error',
        ),
      )
      .catch(() => setData('error'))
  }, [])
  useEffect(load, [load])
  if (data === null) return <p role="status">Loading…</p>
  if (data === 'error') return <p>Store credit could not be loaded. Please try again later.</p>
  return (
    <section className="store-credit">
      <h2>Store credit</h2>
      <p className="credit-balance">
        Balance: <strong data-testid="credit-balance">{formatPagePrice(data.total_balance)}</strong>
      </p>
      <section className="store-credit__redeem" aria-labelledby="redeem-heading">
        <h3 id="redeem-heading">Redeem a gift card</h3>
        <p>Enter the 16-character code from the gift card e-mail: its value is added to your store credit.</p>
        <GiftCardField
          onRedeemed={load}
          redeemedText="The gift card's value was added to your store credit."
        />
      </section>
      <h3>History</h3>
      {data.items.length === 0 ? (
        <p>No store credit transactions yet.</p>
      ) : (
        <ul className="store-credit__list">
          {data.items.map((t, i) => (
            <li key={t.id ?? i} className="store-credit__row">
              <span>{t.comment || (t.amount < 0 ? 'Spent' : 'Added')}</span>
              <span className="store-credit__date">{formatServerDate(t.created_at, 'date')}</span>
              <strong className={t.amount < 0 ? 'store-credit__out' : 'store-credit__in'}>
                {`${t.amount < 0 ? '−' : '+'}${formatPagePrice(Math.abs(t.amount))}`}
              </strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
