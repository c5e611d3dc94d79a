/** The size guide panel (ui panel 'sizeselector'): a table whose first row is the header, and an optional note. */
import { useDialog } from '../layout/dialog'

/** The size guide of the product's category: rows[0] is the header row. */
export interface SizeGuideView {
  title: string
  rows: string[][]
  note?: string
}

export function SizeGuide({
  guide,
  open,
  onToggle,
}: {
  guide: SizeGuideView
  open: boolean
  onToggle: () => void
}) {
  const dialog = useDialog<HTMLElement>(open, onToggle, { 'aria-label': guide.title })
  return (
    <section
      {...dialog}
      id="size-guide"
      className={`size-guide${open ? ' size-guide--open' : ''}`}
      hidden={!open}
      data-testid="size-guide"
    >
      <h2>{guide.title}</h2>
      <table>
        <thead>
          <tr>
            {(guide.rows[0] ?? []).map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static table
              <th key={i}>{cell}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {guide.rows.slice(1).map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static table
            <tr key={r}>
              {row.map((cell, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static table
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {guide.note ? <p>{guide.note}</p> : null}
      <button type="button" className="btn btn--secondary" onClick={onToggle}>
        Close
      </button>
    </section>
  )
}
