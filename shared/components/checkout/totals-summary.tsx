/** Cart totals: the total segments (subtotal, discount, shipping, tax, grand total) with their titles. */

interface SegmentView {
  code: string
  title: string
  value: number
}

/** Renders total segments as a definition list (the tax segment says what the total includes); the grand total is emphasised. */
export function TotalsSummary({
  segments,
  format,
  note,
}: {
  segments: readonly SegmentView[]
  format: (n: number) => string
  /** The line under the totals ('Inclusive of all taxes'). */
  note?: string
}) {
  return (
    <>
      <dl className="totals" data-testid="cart-totals">
        {segments.map((s) => (
          <div key={s.code} className={`totals__row totals__row--${s.code}`} data-segment={s.code}>
            <dt>{s.title}</dt>
            <dd>{format(s.value)}</dd>
          </div>
        ))}
      </dl>
      {note ? (
        <p className="totals__note" data-testid="price-note">
          {note}
        </p>
      ) : null}
    </>
  )
}
