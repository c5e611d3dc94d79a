// The login-return path (client/engines/session/access-rule.ts) accepts only same-origin paths: a property
// test over attacker-style inputs, plus the HTML scanner the worker security tests rely on.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  guardAccountRoute,
  safeRedirectPath,
  takeRedirectAfterLogin,
} from '../../../../../client/engines/session/access-rule'
import { cspNonce, findExecutableMarkup, isScriptUrl } from '../../../../helpers/fuzz-html'

const ORIGIN = 'https://shop.example'

/** Where a browser would end up if it navigated to `path` from a page on ORIGIN. */
function landsOn(path: string): string {
  return new URL(path, `${ORIGIN}/my-account`).origin
}

const OPEN_REDIRECTS = [
  '//evil.example',
  '//evil.example/my-account',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  'https://evil.example/',
  'http:evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  ' //evil.example',
  '%2F%2Fevil.example',
  '/%5Cevil.example',
  '',
  'my-account',
  '/\u0000/evil.example',
  // Dot segments that normalise into a protocol-relative '//host'.
  '/..//evil.example',
  '/.//evil.example',
  '/my-account/..//evil.example',
  '/%2e%2e//evil.example',
  '/\r/evil.example',
  '/\u200b/evil.example',
]

describe('login-return path', () => {
  it.each(OPEN_REDIRECTS)('refuses or neutralises %j', (input) => {
    const out = safeRedirectPath(input)
    if (out !== null) {
      expect(out.startsWith('/')).toBe(true)
      expect(out.startsWith('//')).toBe(false)
      expect(landsOn(out)).toBe(ORIGIN)
      // location.assign(out) resolves against the page, and '//x' would name another host.
      expect(new URL(out, `${ORIGIN}/`).origin).toBe(ORIGIN)
    }
  })

  // Same-origin paths are kept with their query and hash; anything else is refused.
  it.each([
    ['/my-account', '/my-account'],
    ['/my-account/orders/12?x=1#top', '/my-account/orders/12?x=1#top'],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['\\\\evil', null],
    ['https://evil.example/', null],
    ['javascript:alert(1)', null],
    ['/my-account\n//evil', null],
    ['my-account', null],
    ['', null],
    [42, null],
  ])('safeRedirectPath(%j) → %j', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected)
  })

  it('never returns a path that leaves the origin (property, seeded)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '/',
        '//',
        '\\',
        '%2f',
        '%5c',
        ':',
        '@',
        '.',
        '..',
        'evil.example',
        'javascript:',
        '\t',
        '\n',
        '?',
        '#',
        'my-account',
      ),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const input = parts.join('')
        const out = safeRedirectPath(input)
        if (out === null) return true
        return out.startsWith('/') && !out.startsWith('//') && !out.includes('\\') && landsOn(out) === ORIGIN
      }),
      { seed: 1107, numRuns: 1000 },
    )
  })

  it('sends a visitor who is not logged in home, remembering only same-origin paths, never one stored by someone else', () => {
    const mem = new Map<string, string>()
    const store = {
      getItem: (k: string) => mem.get(k) ?? null,
      setItem: (k: string, v: string) => void mem.set(k, v),
      removeItem: (k: string) => void mem.delete(k),
    }
    const went: string[] = []
    const deps = {
      isLoggedIn: () => false,
      sessionStarted: () => true,
      store,
      navigate: (p: string) => went.push(p),
    }
    expect(guardAccountRoute('//evil.example/x', deps)).toBe(false)
    expect(went).toEqual(['/'])
    expect(takeRedirectAfterLogin(store)).toBeNull()
    mem.set('redirect-after-login', 'https://evil.example/')
    expect(takeRedirectAfterLogin(store)).toBeNull()
    expect(guardAccountRoute('/my-account/orders', deps)).toBe(false)
    expect(went).toEqual(['/', '/'])
    expect(takeRedirectAfterLogin(store)).toBe('/my-account/orders')
    expect(takeRedirectAfterLogin(store)).toBeNull()
  })

  it('lets a logged-in visitor through, and waits for the session to start', () => {
    const nav: string[] = []
    // Signed in; and not signed in yet while the session is still starting.
    for (const state of [true, false]) {
      const deps = {
        isLoggedIn: () => state,
        sessionStarted: () => state,
        navigate: (p: string) => nav.push(p),
      }
      expect(guardAccountRoute('/my-account', deps)).toBe(true)
    }
    expect(nav).toEqual([])
  })
})

describe('the executable-markup scanner used by the XSS tests', () => {
  const nonce = 'abcDEF0123456789xyz='
  it('flags scripts without the nonce, handlers and script URLs', () => {
    const html = `<p>x</p><script>alert(1)</script><img src=x onerror=alert(1)><a href=" java&#x73;cript:alert(1)">a</a>
      <svg><a xlink:href="javascript:1">b</a></svg><iframe src="data:text/html,x"></iframe><script nonce="other">1</script>`
    const kinds = findExecutableMarkup(html, nonce).map((f) => f.kind)
    expect(kinds.filter((k) => k === 'script-without-nonce')).toHaveLength(2)
    expect(kinds).toContain('event-handler')
    expect(kinds.filter((k) => k === 'script-url')).toHaveLength(3)
  })

  it('accepts escaped text, attribute values that merely mention handlers, and our own scripts', () => {
    const html = `<div data-x="{&quot;q&quot;:&quot;&lt;img src=x onerror=alert(1)&gt;&quot;}" title='a onclick=b'>
      &lt;script&gt;alert(1)&lt;/script&gt;</div><script nonce="${nonce}">var s = "<img onerror=x>"</script>
      <script type="application/ld+json">{"a":"b"}</script><a href="/p/x?javascript:1">ok</a>`
    expect(findExecutableMarkup(html, nonce)).toEqual([])
  })

  it('sees a break-out from an inline script', () => {
    const html = `<script nonce="${nonce}">var s = "</script><script>alert(1)</script>"</script>`
    expect(findExecutableMarkup(html, nonce).map((f) => f.kind)).toEqual(['script-without-nonce'])
  })

  it('reads the nonce from a CSP and recognises script URLs', () => {
    expect(cspNonce("script-src 'nonce-Zm9v' 'strict-dynamic'")).toBe('Zm9v')
    expect(cspNonce("script-src 'self'")).toBeNull()
    expect(isScriptUrl('\u0001JAVASCRIPT:x')).toBe(true)
    expect(isScriptUrl('/javascript:x')).toBe(false)
  })
})
