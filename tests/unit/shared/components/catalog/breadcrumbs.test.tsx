// One breadcrumb trail for the category and product pages: links up the trail, the active crumb
// as plain text marked as the current page.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Breadcrumbs } from '../../../../../shared/components/catalog/breadcrumbs'

describe('breadcrumbs', () => {
  it('links every crumb but the active one, which is the current page', () => {
    const html = renderToString(
      <Breadcrumbs
        crumbs={[
          { label: 'Home', href: '/' },
          { label: 'Women', href: '/c/women' },
          { label: 'Silk Saree', href: null },
        ]}
      />,
    )
    expect(html).toMatch(/^<nav class="breadcrumbs" aria-label="Breadcrumb" data-testid="breadcrumbs">/)
    expect(html).toContain('<li><a href="/">Home</a></li>')
    expect(html).toContain('<li><a href="/c/women">Women</a></li>')
    expect(html).toContain('<li aria-current="page">Silk Saree</li>')
    expect(html).not.toContain('<a href="null"')
  })
})
