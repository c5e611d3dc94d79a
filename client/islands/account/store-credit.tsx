/** The account's store credit: the balance and its transactions. */
import { useEffect, useState } from 'react'
import { formatPagePrice } from '../page-price'
import { userGet } from './account-api'
import { formatServerDate } from './account-model'

interface CreditItem {
  id?: number | string
  amount: number
  description?: string
  created_at?: string
  balance?: number
}

export function StoreCredit() {
  const [data, setData] = useState<{ items: CreditItem[]; total_balance: number } | null | 'error'>(null)
  useEffect(() => {
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
  if (data === null) return <p role="status">Loading…</p>
  if (data === 'error') return <p>Store credit could not be loaded. Please try again later.</p>
  return (
    <section>
      <h2>Store credit</h2>
      <p className="credit-balance">
        Balance: <strong data-testid="credit-balance">{formatPagePrice(data.total_balance)}</strong>
      </p>
      {data.items.length === 0 ? (
        <p>No store credit transactions yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Description</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((t, i) => (
              <tr key={t.id ?? i}>
                <td>{formatServerDate(t.created_at, 'date')}</td>
                <td>{t.description ?? ''}</td>
                <td>{formatPagePrice(t.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
