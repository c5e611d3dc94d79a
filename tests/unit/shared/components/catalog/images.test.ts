import { describe, expect, it } from 'vitest'
import { galleryImage, tileImage } from '../../../../../shared/components/catalog/images'

const widths = (srcSet: string) => srcSet.split(', ').map((c) => c.split(' ')[1])

describe('image candidates', () => {
  it('a photograph of an imported catalogue gets gallery and zoom widths on the product page', () => {
    const { src, srcSet } = galleryImage('/w/t/wt06-blue_main.jpg')
    expect(src).toBe('/img/600/744/w/t/wt06-blue_main.jpg')
    expect(widths(srcSet)).toEqual(['600w', '800w'])
    expect(srcSet).toContain('/img/800/1212/w/t/wt06-blue_main.jpg 800w')
  })

  it('a drawn image (SVG) and the placeholder get one 1x candidate', () => {
    expect(galleryImage('/p/kurta-red.svg').srcSet).toBe('/img/600/744/p/kurta-red.svg 1x')
    expect(galleryImage(null).srcSet).toBe('/img/600/744/placeholder.svg 1x')
  })

  it('tiles offer three widths whatever the image kind', () => {
    expect(widths(tileImage('/w/t/wt06-blue_main.jpg').srcSet)).toEqual(['280w', '400w', '585w'])
  })
})
