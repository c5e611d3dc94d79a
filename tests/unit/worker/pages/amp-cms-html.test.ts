import { describe, expect, it } from 'vitest'
import { ampCmsHtml, CMS_IMAGE } from '../../../../worker/pages/amp/cms-html'

describe('ampCmsHtml', () => {
  it('turns a picture into a responsive amp-img with its stated sizes, unwrapping <picture>', () => {
    expect(
      ampCmsHtml(
        '<picture><source srcset="/a.webp"><img src="/a.jpg" alt="A" width="40" height="50" loading="lazy"></picture>',
      ),
    ).toBe(
      '<amp-img src="/a.jpg" width="40" height="50" layout="responsive" class="cms-img" alt="A"></amp-img>',
    )
  })

  it('falls back to the content box for missing, zero, huge or fractional sizes', () => {
    for (const [w, h] of [
      ['', ''],
      ['0', '10'],
      ['5000', '10'],
      ['10.5', '10'],
      ['10', 'abc'],
    ]) {
      const out = ampCmsHtml(`<img src="/a.jpg" width="${w}" height="${h}">`)
      expect(out).toContain(`width="${CMS_IMAGE.width}" height="${CMS_IMAGE.height}"`)
    }
  })

  it('drops an image without a safe source, and content the sanitizer refuses', () => {
    expect(ampCmsHtml('<img src="javascript:alert(1)"><script>x()</script><iframe src="/"></iframe>')).toBe(
      '',
    )
  })

  it('keeps only the link targets AMP allows and no AMP-reserved class', () => {
    expect(ampCmsHtml('<a href="/x" target="_self" class="amp-foo i-amphtml-a ok">x</a>')).toBe(
      '<a href="/x" class="ok">x</a>',
    )
    expect(ampCmsHtml('<a href="/x" target="_blank">x</a>')).toBe(
      '<a href="/x" target="_blank" rel="noopener noreferrer">x</a>',
    )
  })

  it('leaves escaped text alone: a "<img" written as text is not a picture', () => {
    expect(ampCmsHtml('<p>1 &lt;img src=x&gt; 2</p>')).toBe('<p>1 &lt;img src=x&gt; 2</p>')
  })
})
