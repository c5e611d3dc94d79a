// A focus-trapped panel is announced as a modal dialog with a name, whichever way it is named.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { useDialog } from '../../../../../client/islands/layout/dialog'

function Panel({ name }: { name: Parameters<typeof useDialog>[2] }) {
  const dialog = useDialog<HTMLDivElement>(true, () => undefined, name)
  return (
    <div {...dialog} className="panel">
      <h2 id="panel-title">Wishlist</h2>
    </div>
  )
}

describe('dialogs', () => {
  it('a dialog named in words carries role, aria-modal and aria-label', () => {
    expect(renderToStaticMarkup(<Panel name={{ 'aria-label': 'Shopping cart' }} />)).toMatch(
      /^<div role="dialog" aria-modal="true" aria-label="Shopping cart" class="panel">/,
    )
  })

  it('a dialog named by its heading points at it with aria-labelledby', () => {
    const html = renderToStaticMarkup(<Panel name={{ 'aria-labelledby': 'panel-title' }} />)
    expect(html).toMatch(/^<div role="dialog" aria-modal="true" aria-labelledby="panel-title" class="panel">/)
    expect(html).not.toContain('aria-label=')
  })
})
