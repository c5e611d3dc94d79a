// The icon set: one sprite of lucide drawings, icons that reference it and stay decorative.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Icon, IconSprite, iconBody } from '../../../../../client/islands/layout/icons'

describe('icons', () => {
  it('takes the drawing out of an icon file, without the outer <svg> or its whitespace', () => {
    const svg =
      '\n<svg\n  class="lucide lucide-x"\n  width="24"\n>\n  <path d="M18 6 6 18" />\n  <path d="m6 6 12 12" />\n</svg>\n'
    expect(iconBody(svg)).toBe('<path d="M18 6 6 18" /><path d="m6 6 12 12" />')
    expect(iconBody('no svg here')).toBe('')
  })

  it('the sprite holds one hidden symbol per icon, each a lucide drawing', () => {
    const html = renderToStaticMarkup(<IconSprite />)
    expect(html).toMatch(
      /^<svg class="icon-sprite" aria-hidden="true" focusable="false" width="0" height="0">/,
    )
    const ids = [...html.matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24"/g)].map((m) => m[1])
    expect(ids).toContain('icon-x')
    expect(ids).toContain('icon-user-round')
    expect(new Set(ids).size).toBe(ids.length)
    // Every symbol has a drawing and no leftover outer <svg> of its own.
    for (const symbol of html.match(/<symbol[^>]*>.*?<\/symbol>/g) ?? []) {
      expect(symbol).toMatch(/<(path|circle|rect|line|polyline)\b/)
      expect(symbol).not.toContain('<svg')
    }
  })

  it('an icon is a hidden reference to its symbol (the control carries the name)', () => {
    const html = renderToStaticMarkup(<Icon name="heart" className="big" />)
    expect(html).toBe(
      '<svg aria-hidden="true" focusable="false" class="icon big"><use href="#icon-heart"></use></svg>',
    )
    expect(renderToStaticMarkup(<IconSprite />)).toContain('id="icon-heart"')
  })
})
