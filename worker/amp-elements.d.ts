// JSX typings for the AMP custom elements the AMP pages render.
import 'react'

type AmpLayout = 'responsive' | 'fixed' | 'fill' | 'fixed-height' | 'intrinsic' | 'nodisplay' | 'flex-item'

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'amp-img': {
        src: string
        width: number
        height: number
        layout?: AmpLayout
        alt?: string
        srcset?: string
        sizes?: string
        key?: string
        className?: string
      }
      'amp-carousel': {
        type?: 'slides' | 'carousel'
        width: number
        height: number
        layout?: AmpLayout
        role?: string
        'aria-label'?: string
        children?: React.ReactNode
      }
    }
  }
}
