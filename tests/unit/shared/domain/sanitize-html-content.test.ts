import { describe, expect, it } from 'vitest'
import { isSafeUrl, sanitizeHtml } from '../../../../shared/domain/sanitize-html'

describe('sanitizeHtml keeps safe CMS markup', () => {
  it.each([
    ['<p>Hello <strong>world</strong></p>', '<p>Hello <strong>world</strong></p>'],
    ['<h2 class="title">Our story</h2>', '<h2 class="title">Our story</h2>'],
    ['<a href="/c/women">Women</a>', '<a href="/c/women">Women</a>'],
    [
      '<a href="https://example.com/x?a=1&amp;b=2">x</a>',
      '<a href="https://example.com/x?a=1&amp;b=2">x</a>',
    ],
    ['<a href="mailto:care@example.com">mail</a>', '<a href="mailto:care@example.com">mail</a>'],
    [
      '<img src="/img/a.svg" alt="A" width="10" height="20">',
      '<img src="/img/a.svg" alt="A" width="10" height="20">',
    ],
    ['<ul><li>one</li><li>two</li></ul>', '<ul><li>one</li><li>two</li></ul>'],
    ['Fish &amp; chips &nbsp; &#8377;', 'Fish &amp; chips &nbsp; &#8377;'],
    ['<br/><hr />', '<br><hr>'],
  ])('%s', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected)
  })

  it('adds rel=noopener to target=_blank links', () => {
    expect(sanitizeHtml('<a href="https://x.test" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://x.test" target="_blank" rel="noopener noreferrer">x</a>',
    )
  })

  it('returns an empty string for null/undefined', () => {
    expect(sanitizeHtml(null)).toBe('')
    expect(sanitizeHtml(undefined)).toBe('')
  })
})

describe('sanitizeHtml removes XSS vectors', () => {
  const cases: [string, string][] = [
    ['<script>alert(1)</script>', ''],
    ['<SCRIPT SRC=//evil.test/x.js></SCRIPT>', ''],
    ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
    ['<img src=x onerror=alert(1)>', '<img src="x">'],
    ['<img src="x" ONERROR="alert(1)">', '<img src="x">'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="  javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#97script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="javascript&colon;alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', '<a>x</a>'],
    ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['<img srcset="/a.png 1x, javascript:alert(1) 2x">', '<img>'],
    ['<div style="background:url(javascript:alert(1))">x</div>', '<div>x</div>'],
    ['<style>body{display:none}</style>ok', 'ok'],
    ['<iframe src="https://evil.test"></iframe>', ''],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<svg onload=alert(1)>', ''],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ''],
    ['<object data="x.swf"></object><embed src="x.swf">', ''],
    ['<form action="/x"><input name="a"></form>', ''],
    ['<p onclick="alert(1)" data-island="header" data-props="{}">x</p>', '<p>x</p>'],
    ['<!-- <script>alert(1)</script> -->ok', 'ok'],
    ['<![CDATA[<script>alert(1)</script>]]>', 'alert(1)]]&gt;'],
    ['<a title="x" onmouseover=alert(1)>x</a>', '<a title="x">x</a>'],
    ['</div></main><script>alert(1)</script>', ''],
    ['<div><p>unclosed', '<div><p>unclosed</p></div>'],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ['<base href="https://evil.test/">', ''],
    ['<link rel="stylesheet" href="https://evil.test/x.css">', ''],
    ['a < b > c', 'a &lt; b &gt; c'],
    ['<img src="x" alt="x', '&lt;img src="x" alt="x'],
  ]
  it.each(cases)('%s', (input, expected) => {
    const out = sanitizeHtml(input)
    expect(out).toBe(expected)
    expect(out).not.toMatch(/<script|<iframe|<svg|<style|\son\w+=|javascript:/i)
  })
})

it('keeps an encoded quote inside the attribute value (no attribute break-out)', () => {
  expect(sanitizeHtml('<img src="x" alt="a&quot; onerror=&quot;alert(1)">')).toBe(
    '<img src="x" alt="a&quot; onerror=&quot;alert(1)">',
  )
})

describe('isSafeUrl', () => {
  it.each([
    ['/c/women', true],
    ['#top', true],
    ['https://x.test', true],
    ['tel:+911234', true],
    ['javascript:alert(1)', false],
    ['\u0001javascript:alert(1)', false],
    ['data:image/png;base64,AAA', false],
    ['\\\\evil.test', false],
  ])('%s → %s', (url, safe) => {
    expect(isSafeUrl(url)).toBe(safe)
  })
})
