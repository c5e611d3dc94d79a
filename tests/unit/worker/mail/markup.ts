/**
 * What a mail's HTML part may hold: the shop's own tags and attributes, links and pictures by
 * absolute https or mailto URLs. Anything else in the HTML came from someone's words unescaped.
 */
import { expect } from 'vitest'

/** The shop's own tags and attributes: anything else in the HTML came from someone's words. */
const TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'body',
  'div',
  'table',
  'tr',
  'td',
  'p',
  'h2',
  'a',
  'img',
  'br',
  'span',
  'strong',
])
const ATTRIBUTES = new Set([
  'lang',
  'charset',
  'name',
  'content',
  'style',
  'role',
  'width',
  'height',
  'cellpadding',
  'cellspacing',
  'align',
  'href',
  'src',
  'alt',
])

function markup(html: string) {
  const tags = [...html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)]
  // Every "<" that opens a tag is one of the matched tags (nothing half-formed slips through).
  expect(html.match(/<[a-zA-Z]/g)?.length).toBe(tags.length)
  return tags.map(([, tag = '', attrs = '']) => ({
    tag: tag.toLowerCase(),
    attrs: [...attrs.matchAll(/\s([^\s=>]+)(?:="([^"]*)")?/g)].map(
      ([, n = '', v = '']) => [n.toLowerCase(), v] as const,
    ),
  }))
}

/** Fails when the HTML holds a tag, an attribute or a link the shop does not write. */
export function expectOnlyShopMarkup(html: string) {
  for (const { tag, attrs } of markup(html)) {
    expect(TAGS, tag).toContain(tag)
    for (const [name, value] of attrs) {
      expect(ATTRIBUTES, `${tag} ${name}`).toContain(name)
      if (name === 'href' || name === 'src') expect(value).toMatch(/^(https:\/\/|mailto:)/)
    }
  }
}
