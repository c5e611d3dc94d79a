// Stored URL mappings of type redirect (KV URL_MAPPINGS) are followed only to the shop's own
// origin: a target a browser would rewrite into another host (a tab, a newline, a backslash, dot
// segments before '//') is ignored and the URL goes on to the other lookups / the not-found page.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../../../worker/platform/env'

const ORIGIN = readConfig(env).PUBLIC_ORIGIN

async function follow(key: string, to: string, status?: number) {
  await env.URL_MAPPINGS.put(key, JSON.stringify({ type: 'redirect', to, ...(status ? { status } : {}) }))
  const res = await SELF.fetch(`https://shop.test/${key}`, { redirect: 'manual' })
  await res.arrayBuffer()
  return res
}

/** The origin a browser on the shop would land on following this response's Location. */
function landsOn(res: Response): string | null {
  const location = res.headers.get('location')
  return location === null ? null : new URL(location, 'https://shop.test/x').origin
}

describe('stored redirects', () => {
  it('follows a same-origin target with its status, normalised', async () => {
    const res = await follow('old-sale', '/sale?from=old', 302)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/sale?from=old')
    const absolute = await follow('old-sale-abs', `${ORIGIN}/sale`)
    expect(absolute.status).toBe(301)
    expect(absolute.headers.get('location')).toBe('/sale')
  })

  it.each([
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '/\\evil.example',
    '/..//evil.example',
    '//evil.example',
    'https://evil.example/',
    'https://shop.test/sale',
  ])('ignores %j: the visitor stays on the shop', async (to) => {
    const res = await follow(`disguised-${encodeURIComponent(to).replace(/%/g, '')}`, to)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/page-not-found')
    expect(landsOn(res)).toBe('https://shop.test')
  })
})
