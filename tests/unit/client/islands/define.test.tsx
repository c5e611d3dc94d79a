import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { defineIsland, jsonForScript } from '../../../../client/islands/define'
import { islandProps } from '../../../helpers/islands'

const Echo = defineIsland('echo', ({ text }: { text: string; nested: { n: number[] } }) => <p>{text}</p>)

describe('island props data block', () => {
  const hostile = '</script><script>alert(1)</script><!-- & "quoted" \'single\' \u2028'

  it('round-trips any string through the data block, and nothing closes the element early', () => {
    const props = { text: hostile, nested: { n: [1, 2, 3] } }
    const html = renderToString(<Echo {...props} />)
    // Exactly one closing tag: the data block's own.
    expect(html.match(/<\/script/gi)).toHaveLength(1)
    expect(html).not.toContain('<!--')
    expect(islandProps(html, 'echo')).toEqual(props)
    // The component itself renders the text escaped, inside the island root after the data block.
    expect(html).toMatch(/<\/script><div data-island="echo"><p>&lt;\/script&gt;/)
  })

  it('writes `<` as \\u003c and keeps the JSON parseable', () => {
    const s = jsonForScript({ a: '<b>' })
    expect(s).toBe('{"a":"\\u003cb>"}')
    expect(JSON.parse(s)).toEqual({ a: '<b>' })
  })
})
