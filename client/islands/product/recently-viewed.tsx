/**
 * Recently viewed island: records the current product on mount and lists the other recently viewed
 * products, newest first (max 20, kept by client/state/recently-viewed).
 */

import { ListImage } from '@shared/components/catalog/list-image'
import type { ProductSummary } from '@shared/components/product/summary'
import { formatUnitPrice } from '@shared/domain/currency'
import { useEffect } from 'react'
import { recentlyViewed } from '../../state/recently-viewed'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { num, object, schemaOf, str } from '../props-check'

interface RecentlyViewedProps {
  current: ProductSummary
  currency: string
}

const RecentlyViewedPropsSchema = schemaOf<RecentlyViewedProps>(
  object({
    current: (v, p) => {
      object({ sku: str, name: str, url: str, price: num })(v, p)
      return v
    },
    currency: str,
  }),
)

function RecentlyViewed({ current, currency }: RecentlyViewedProps) {
  const items = useSignalValue(recentlyViewed.items)
  useEffect(() => {
    void recentlyViewed.add(current)
  }, [current])
  const others = items.filter((i) => i.sku !== current.sku)
  if (others.length === 0) return <div className="recently-viewed recently-viewed--empty" />
  return (
    <section
      className="recently-viewed"
      aria-labelledby="recently-viewed-title"
      data-testid="recently-viewed"
    >
      <h2 id="recently-viewed-title">Recently viewed</h2>
      <ul className="recently-viewed__list">
        {others.map((item) => (
          <li key={item.sku} className="recently-viewed__item" data-sku={item.sku}>
            <a href={item.url}>
              <ListImage path={item.image} size="tile" />
              <span className="recently-viewed__name">{item.name}</span>
              <span className="price">{formatUnitPrice(item.price, currency)}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}

export const RecentlyViewedIsland = defineIsland('recently-viewed', RecentlyViewed, RecentlyViewedPropsSchema)
