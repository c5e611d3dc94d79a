// Kept markup beside the page (worker/platform/render/kept-bytes.ts): a page rendered whole with
// its kept pieces as markers, and their bytes put in the body where the markers were, is byte for
// byte the page rendered with the markup in place; markers never reach the shopper, and text that
// looks like one stays as it is.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  type KeptMarkup,
  keptHtml,
  renderSpliced,
  splicedBody,
} from '../../../../worker/platform/render/kept-bytes'
import {
  DefaultLayout,
  defaultChrome,
  type KeptChrome,
  type LayoutData,
} from '../../../../worker/platform/render/layouts'

const SLOT = '/*the stylesheet*/'
const CSS = 'body{font-family:"Noto Sans"}.price::before{content:"₹"}'
const encoder = new TextEncoder()
const decoder = new TextDecoder()

function Page({ pieces, cms }: { pieces: KeptMarkup[]; cms: string }) {
  return (
    <html lang="en">
      <head>
        <style>{SLOT}</style>
        <title>Kurtas — ₹ 2,500 &amp; up 🪔</title>
      </head>
      <body>
        <h1>Kurtas & “sets”</h1>
        <div className="cms" dangerouslySetInnerHTML={{ __html: cms }} />
        <ul>
          {pieces.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed list
            <li key={i} dangerouslySetInnerHTML={{ __html: keptHtml(p) }} />
          ))}
        </ul>
        <p>{'\u2060kept:1-2:0\u2060'}</p>
      </body>
    </html>
  )
}

const pieces = (): KeptMarkup[] => [
  { html: '<article><h3>Anarkali “Noor”</h3><span class="price">₹ 4,999</span></article>' },
  { html: '<article><h3>Plain</h3><span class="price">$ 59</span></article>' },
  { html: '' },
  { html: '<article><h3>Diya 🪔 set</h3><span class="price">£ 45</span></article>' },
]

/** The page as it was answered before: the markup in place, the stylesheet in its slot, encoded whole. */
const inPlace = (page: string) => encoder.encode(page.replace(SLOT, CSS))

describe('kept markup beside the page', () => {
  it('gives the bytes of the page with the markup in place, whatever its characters', () => {
    // A CMS block may hold what looks like a marker: only this render's markers are replaced.
    for (const cms of ['', '<p>Hello</p>', '\u2060kept:0-0:0\u2060', '<!--kept:1-2:3-->']) {
      const kept = pieces()
      const spliced = renderSpliced(() => renderToString(<Page pieces={kept} cms={cms} />))
      // The string React built holds markers, not the pieces.
      for (const p of kept.filter((p) => p.html)) expect(spliced.html).not.toContain(p.html)
      const body = splicedBody(spliced, [SLOT, encoder.encode(CSS)])
      const whole = renderToString(<Page pieces={kept} cms={cms} />)
      expect(decoder.decode(body)).toBe(decoder.decode(inPlace(whole)))
      expect(body).toEqual(inPlace(whole))
      expect(decoder.decode(body)).not.toContain(spliced.prefix)
    }
  })

  it('encodes a kept piece once, however many pages carry it', () => {
    const kept = pieces()
    const first = splicedBody(renderSpliced(() => renderToString(<Page pieces={kept} cms="" />)))
    const bytes = kept.map((p) => p.bytes)
    expect(bytes.every((b) => b instanceof Uint8Array)).toBe(true)
    const again = splicedBody(renderSpliced(() => renderToString(<Page pieces={kept} cms="" />)))
    for (const [i, p] of kept.entries()) expect(p.bytes).toBe(bytes[i])
    expect(again).toEqual(first)
  })

  it('draws a new token for every render, so one page cannot name another page’s markers', () => {
    const kept = pieces()
    const a = renderSpliced(() => renderToString(<Page pieces={kept} cms="" />))
    const b = renderSpliced(() => renderToString(<Page pieces={kept} cms={a.html} />))
    expect(b.prefix).not.toBe(a.prefix)
    // b's page carries a's whole text (its markers included) as a CMS block: they stay text.
    expect(decoder.decode(splicedBody(b))).toContain(`${a.prefix}0\u2060`)
  })

  it('renders the markup itself outside a spliced render, and after one that failed', () => {
    const [piece] = pieces() as [KeptMarkup]
    expect(keptHtml(piece)).toBe(piece.html)
    expect(() =>
      renderSpliced(() => {
        keptHtml(piece)
        throw new Error('render failed')
      }),
    ).toThrow('render failed')
    expect(keptHtml(piece)).toBe(piece.html)
    // A render inside a spliced one gets its own markers; the outer render's go on after it.
    const outer = renderSpliced(() => {
      const before = keptHtml(piece)
      const inner = renderSpliced(() => keptHtml(piece))
      return `${before}|${inner.html}|${keptHtml(piece)}`
    })
    expect(outer.html).toBe(`${outer.prefix}0\u2060|${outer.html.split('|')[1]}|${outer.prefix}1\u2060`)
    expect(outer.html.split('|')[1]).not.toContain(outer.prefix)
    expect(decoder.decode(splicedBody(outer)).split('|')).toEqual([
      piece.html,
      expect.stringMatching(/^\u2060kept:/),
      piece.html,
    ])
  })
})

describe("the default layout's kept chrome", () => {
  const data: LayoutData = {
    storeName: 'Ode & “Atelier”',
    currency: 'INR',
    country: 'IN',
    menu: [
      {
        id: 3,
        name: 'Sarees & drapes',
        url: '/c/sarees',
        children: [{ id: 4, name: 'Silk', url: '/c/silk', children: [] }],
      },
    ],
    supportEmail: 'care@ode.example',
  }
  const page = (d: LayoutData, chrome?: KeptChrome) => (
    <html lang="en">
      <body>
        <DefaultLayout data={d} chrome={chrome}>
          <p>Kurtas from ₹ 2,500</p>
        </DefaultLayout>
      </body>
    </html>
  )

  it('gives the bytes of the chrome rendered in place, spliced or not', () => {
    for (const d of [data, { ...data, country: 'ZZ', currency: 'USD' as const, supportEmail: undefined }]) {
      const inPlace = renderToString(page(d))
      const chrome = defaultChrome(d)
      const spliced = renderSpliced(() => renderToString(page(d, chrome)))
      expect(spliced.html).not.toContain('data-testid="footer"')
      expect(decoder.decode(splicedBody(spliced))).toBe(inPlace)
      // Outside a spliced render (a page that streams) the chrome is rendered in place.
      expect(renderToString(page(d, chrome))).toBe(inPlace)
    }
  })

  it('is kept per menu object and the values it shows, a bounded number of them', () => {
    const chrome = defaultChrome(data)
    expect(defaultChrome({ ...data })).toBe(chrome)
    expect(defaultChrome({ ...data, country: 'US' })).not.toBe(chrome)
    expect(defaultChrome({ ...data, currency: 'GBP' })).not.toBe(chrome)
    expect(defaultChrome({ ...data, menu: [...data.menu] })).not.toBe(chrome)
    // A country from a cookie can be any two letters: past the bound the variants start afresh.
    for (let i = 0; i < 40; i++)
      defaultChrome({ ...data, country: `Q${String.fromCharCode(65 + (i % 26))}${i}` })
    expect(defaultChrome({ ...data })).not.toBe(chrome)
  })
})
