// The document shell's loading strategy (Lighthouse, issue 10): the stylesheet is inlined in a
// nonce'd <style> (no render-blocking request) and the islands' JS is fetched at low priority.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { clientManifest } from '../../../worker/platform/render/assets'

describe('document shell', () => {
  it('inlines the stylesheet with the CSP nonce instead of linking it', async () => {
    const res = await SELF.fetch('https://shop.test/cart')
    const html = await res.text()
    const csp = res.headers.get('content-security-policy') ?? ''
    const nonce = csp.match(/style-src [^;]*'nonce-([^']+)'/)?.[1]
    expect(nonce).toBeTruthy()
    const style = html.match(/<style nonce="([^"]+)">([^<]*)<\/style>/)
    expect(style?.[1]).toBe(nonce)
    expect(style?.[2]).toBe(clientManifest.cssText)
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/)
  })

  it('fetches the module script and its preloads at low priority', async () => {
    const html = await (await SELF.fetch('https://shop.test/cart')).text()
    const tags = html.match(/<(script type="module"|link rel="modulepreload")[^>]*>/g) ?? []
    expect(tags.length).toBeGreaterThan(1)
    for (const tag of tags) expect(tag.toLowerCase()).toContain('fetchpriority="low"')
  })
})
