/** The signed-in shopper's orders, newest first (the account home shows a few, My orders more). */
import { useEffect, useState } from 'react'
import { userGet } from './account-api'
import type { HistoryOrder } from './account-model'

export function useOrderHistory(pageSize = 20) {
  const [orders, setOrders] = useState<HistoryOrder[] | null | 'error'>(null)
  useEffect(() => {
    void userGet<{ items?: HistoryOrder[] }>('user/order-history', { pageSize, currentPage: 1 })
      .then((r) => setOrders(r.code === 200 ? (r.result?.items ?? []) : 'error'))
      .catch(() => setOrders('error'))
  }, [pageSize])
  return orders
}
