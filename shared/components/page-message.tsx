/** A centred heading + text block for simple states (not found, error, empty). */
import type { ReactNode } from 'react'

export function PageMessage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page-message">
      <h1>{title}</h1>
      {children}
    </section>
  )
}

/** Where an island cannot go on (signed out, an order it cannot show): why, and the way back to the shop. */
export function BackToShop({
  className,
  testId,
  message,
}: {
  className: string
  testId: string
  message: string
}) {
  return (
    <div className={className} data-testid={testId}>
      <p>{message}</p>
      <a href="/" className="btn">
        Back to the shop
      </a>
    </div>
  )
}
