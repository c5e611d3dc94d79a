/** An order's money rows as a definition list (the confirmation, the order page, the checkout review). */
import type { MoneyRow } from './money-rows'

export function MoneyRows({
  rows,
  format,
}: {
  rows: readonly MoneyRow[]
  format: (minor: number) => string
}) {
  return (
    <dl className="totals order-money" data-testid="order-money">
      {rows.map((r) => (
        <div key={r.code} className={`totals__row totals__row--${r.code}`} data-row={r.code}>
          <dt>{r.title}</dt>
          <dd>
            {r.minor < 0 ? '−' : ''}
            {format(Math.abs(r.minor))}
          </dd>
        </div>
      ))}
    </dl>
  )
}
