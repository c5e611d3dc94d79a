/** Cart totals: the total segments (subtotal, discount, shipping, tax, grand total) with their titles. */

interface SegmentView {
  code: string
  title: string
  value: number
}

/** Renders total segments as a definition list; the grand total is emphasised. */
export function TotalsSummary({
  segments,
  format,
}: {
  segments: readonly SegmentView[]
  format: (n: number) => string
}) {
  return (
    <dl className="totals" data-testid="cart-totals">
      {segments.map((s) => (
        <div key={s.code} className={`totals__row totals__row--${s.code}`} data-segment={s.code}>
          <dt>{s.title}</dt>
          <dd>{format(s.value)}</dd>
        </div>
      ))}
    </dl>
  )
}
