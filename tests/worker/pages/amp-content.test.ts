// The AMP version of a CMS page: canonical ↔ amphtml both ways, the shop's AMP frame, and stored
// content made AMP-valid (no script, style or iframe from content, pictures as sized amp-img).
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../../../worker/platform/env'

const BASE = 'https://shop.test'
const ORIGIN = readConfig(env).PUBLIC_ORIGIN

const HOSTILE = `<p style="color:red" onclick="alert(1)">Woven by hand.</p>
<script>alert("x")</script><style>body{display:none}</style>
<iframe src="https://evil.example/"></iframe>
<picture><source srcset="/img/600/744/b/a.svg"><img src="/img/600/744/b/a.svg" alt="A loom" width="600" height="744" loading="lazy" decoding="async"></picture>
<img src="/img/300/300/b/b.svg" alt="No sizes">
<img src="javascript:alert(1)" alt="bad">
<a href="/c/women" target="_self" class="i-amphtml-x keep">Women</a>
<form action="/x"><input name="q"></form>`

async function putPage(identifier: string, content: string, active = true) {
  const doc = {
    identifier,
    title: 'Loom notes',
    content,
    meta_title: null,
    meta_description: 'About the loom',
    is_active: active,
  }
  await env.DB.prepare(
    'INSERT OR REPLACE INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (?, ?, 0, ?, ?)',
  )
    .bind(identifier === 'amp-probe' ? 9811 : 9812, identifier, active ? 1 : 0, JSON.stringify(doc))
    .run()
}

describe('AMP CMS pages', () => {
  beforeAll(async () => {
    await putPage('amp-probe', HOSTILE)
    await putPage('amp-gone', '<p>hidden</p>', false)
  })

  it('the full page names its AMP version and the AMP page names the full page as canonical', async () => {
    const full = await (await SELF.fetch(`${BASE}/i/amp-probe`)).text()
    expect(full).toContain(`<link rel="amphtml" href="${ORIGIN}/amp/i/amp-probe"`)
    expect(full).toContain(`<link rel="canonical" href="${ORIGIN}/i/amp-probe"`)
    const res = await SELF.fetch(`${BASE}/amp/i/amp-probe`)
    expect(res.status).toBe(200)
    const amp = await res.text()
    expect(amp.startsWith('<!doctype html><html amp')).toBe(true)
    expect(amp).toContain(`<link rel="canonical" href="${ORIGIN}/i/amp-probe">`)
    // The shop's AMP frame: the header's way back to the full page, the footer.
    expect(amp).toContain('href="/i/amp-probe">View the full page</a>')
    expect(amp).toContain('<footer class="footer">')
    expect(amp).toContain('<h1>Loom notes</h1>')
  })

  it('a page with a route of its own is canonical there, and links its AMP version', async () => {
    const full = await (await SELF.fetch(`${BASE}/magazine`)).text()
    expect(full).toContain(`<link rel="amphtml" href="${ORIGIN}/amp/i/magazine"`)
    const amp = await (await SELF.fetch(`${BASE}/amp/i/magazine`)).text()
    expect(amp).toContain(`<link rel="canonical" href="${ORIGIN}/magazine">`)
    expect(amp).toContain('<h1>Magazine</h1>')
  })

  it('keeps no script, style, iframe, form or event attribute from the content; pictures become sized amp-img', async () => {
    const amp = await (await SELF.fetch(`${BASE}/amp/i/amp-probe`)).text()
    const body = amp.slice(amp.indexOf('<body'))
    expect(body).toContain('Woven by hand.')
    expect(body).not.toMatch(/<(script|style|iframe|form|input|picture|source|img)[\s>]/i)
    expect(body).not.toMatch(/\s(on\w+|style|loading|decoding)=/i)
    expect(body).not.toContain('javascript:')
    expect(body).toContain(
      '<amp-img src="/img/600/744/b/a.svg" width="600" height="744" layout="responsive" class="cms-img" alt="A loom"></amp-img>',
    )
    // A picture without its sizes gets the content default box, still responsive.
    expect(body).toContain(
      '<amp-img src="/img/300/300/b/b.svg" width="600" height="744" layout="responsive" class="cms-img" alt="No sizes">',
    )
    expect(body).toContain('<a href="/c/women" class="keep">Women</a>')
    // The head holds only the AMP runtime and JSON-LD scripts, and the one custom stylesheet.
    expect([...amp.matchAll(/<style amp-custom>/g)]).toHaveLength(1)
  })

  it('a missing or inactive page is a 404, not an empty AMP page', async () => {
    for (const id of ['amp-gone', 'no-such-page']) {
      const res = await SELF.fetch(`${BASE}/amp/i/${id}`)
      expect(res.status).toBe(404)
      expect(await res.text()).toContain('CMS query returned empty result')
    }
  })
})
