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
