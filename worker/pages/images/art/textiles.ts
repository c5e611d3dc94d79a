/**
 * Fabric surfaces as SVG patterns, drawn in the garment's own colour: each craft has its own
 * motif (bandhani dots in clusters, ikat's feathered diamonds, block-printed florals, zari buttas,
 * white chikankari vines, brocade paisleys, tweed herringbone, quilted channels, a plain weave).
 * Patterns are defined once per image under the id `t`; zari and brocade also get a woven border
 * (`zb`) for hems and pallus.
 */
import type { Textile } from '../palette'
import { ink, isLight, mix, shade } from './colour'

const GOLD = '#d9b44a'
const GOLD_LIGHT = '#f1d98a'

/** Whether the textile has a woven gold border at the hem. */
export const hasBorder = (t: Textile) => t === 'zari' || t === 'brocade'

/** The tile of one textile in a ground colour: `<pattern id="t">`. `scale` enlarges it (detail view). */
export function textilePattern(textile: Textile, hex: string, scale = 1): string {
  const s = (n: number) => Math.round(n * scale * 10) / 10
  const tile = (w: number, h: number, body: string) =>
    `<pattern id="t" width="${s(w)}" height="${s(h)}" patternUnits="userSpaceOnUse"><g transform="scale(${scale})">${body}</g></pattern>`
  switch (textile) {
    case 'bandhani': {
      // Tie-dye dots: a ring of small resist dots around a centre dot, on a diagonal grid.
      const dot = isLight(hex) ? shade(hex, -0.35) : shade(hex, 0.75)
      const ring = (x: number, y: number) =>
        `<circle cx="${x}" cy="${y}" r="1.3"/>${[0, 60, 120, 180, 240, 300]
          .map((a) => {
            const r = (a * Math.PI) / 180
            return `<circle cx="${(x + Math.cos(r) * 3.6).toFixed(1)}" cy="${(y + Math.sin(r) * 3.6).toFixed(1)}" r=".9"/>`
          })
          .join('')}`
      return tile(16, 16, `<g fill="${dot}">${ring(4, 4)}${ring(12, 12)}</g>`)
    }
    case 'ikat': {
      // Diamonds whose edges are feathered, as warp and weft threads shift when dyed before weaving.
      const a = ink(hex, 0.6)
      const b = mix(hex, GOLD_LIGHT, 0.45)
      return tile(
        24,
        30,
        `<path d="M12 2l9 13-9 13-9-13z" fill="${a}" opacity=".75"/><path d="M12 8l5 7-5 7-5-7z" fill="${b}"/><path d="M3 15h-3M21 15h3M12 2v-2M12 28v2" stroke="${a}" stroke-width="2" opacity=".6"/><path d="M0 0l4 4M24 0l-4 4M0 30l4-4M24 30l-4-4" stroke="${a}" stroke-width="1.4" opacity=".5"/>`,
      )
    }
    case 'block': {
      // A hand-block flower, repeated in a half-drop with a small leaf between.
      const petal = ink(hex, 0.5)
      const heart = isLight(hex) ? shade(hex, -0.5) : GOLD_LIGHT
      const flower = (x: number, y: number) =>
        `<g transform="translate(${x} ${y})"><path d="M0-5c3 0 3 4 0 5c-3-1-3-5 0-5zM0 5c3 0 3-4 0-5c-3 1-3 5 0 5zM-5 0c0-3 4-3 5 0c-1 3-5 3-5 0zM5 0c0-3-4-3-5 0c1 3 5 3 5 0z" fill="${petal}"/><circle r="1.6" fill="${heart}"/></g>`
      return tile(
        22,
        22,
        `${flower(5.5, 5.5)}${flower(16.5, 16.5)}<path d="M16 4q3 2 0 4q-3-2 0-4zM5 15q3 2 0 4q-3-2 0-4z" fill="${petal}" opacity=".6"/>`,
      )
    }
    case 'zari': {
      // Small gold buttas (a bud on a stem) scattered in a half-drop on the silk.
      const butta = (x: number, y: number) =>
        `<path transform="translate(${x} ${y})" d="M0-4c2.5 1.5 2.5 4 0 6c-2.5-2-2.5-4.5 0-6zM0 2v3M-2 5h4" fill="${GOLD}" stroke="${GOLD}" stroke-width=".6"/>`
      return tile(20, 24, `${butta(5, 6)}${butta(15, 18)}`)
    }
    case 'chikankari': {
      // White-on-ground shadow work: a vine of small flowers and leaves in thread outline.
      const thread = isLight(hex) ? shade(hex, -0.18) : mix(hex, '#ffffff', 0.8)
      return tile(
        26,
        26,
        `<g fill="none" stroke="${thread}" stroke-width=".9"><path d="M0 20q6-8 13-6t13-8"/><circle cx="13" cy="14" r="2.4"/><path d="M6 17q-2-4 2-5q1 4-2 5zM20 9q1-4 4-3q-1 4-4 3z"/></g><g fill="${thread}"><circle cx="4" cy="5" r=".9"/><circle cx="7" cy="4" r=".9"/><circle cx="5.5" cy="7" r=".9"/><circle cx="20" cy="21" r=".9"/></g>`,
      )
    }
    case 'brocade': {
      // A woven paisley jaal in tonal gold.
      const g = mix(hex, GOLD, 0.65)
      return tile(
        28,
        32,
        `<g fill="${g}"><path d="M9 6c6 0 8 7 4 11c-3 3-8 2-8-2c0-3 4-3 4-1c0-2-3-4-4-2c1-4 2-6 4-6z"/><path d="M23 22c-6 0-8 7-4 11" opacity=".9"/></g><path d="M0 16h28M14 0v32" stroke="${g}" stroke-width=".5" opacity=".5"/>`,
      )
    }
    case 'tweed': {
      // Herringbone: short diagonals that change direction every column.
      const a = ink(hex, 0.35)
      return tile(
        8,
        8,
        `<path d="M0 0l4 4M0 4l4 4M4 4l4-4M4 8l4-4" stroke="${a}" stroke-width="1" opacity=".7"/><circle cx="6" cy="2" r=".5" fill="${mix(hex, '#c9a46a', 0.6)}"/>`,
      )
    }
    case 'quilted': {
      // Kantha-style running stitch in diamond channels.
      const a = ink(hex, 0.45)
      return tile(
        18,
        18,
        `<path d="M0 0l18 18M18 0l-18 18" stroke="${a}" stroke-width="1" stroke-dasharray="2 1.5" fill="none"/>`,
      )
    }
    default: {
      // A plain weave: faint warp and weft.
      const a = isLight(hex) ? shade(hex, -0.06) : shade(hex, 0.08)
      return tile(4, 4, `<path d="M0 .5h4M.5 0v4" stroke="${a}" stroke-width=".6"/>`)
    }
  }
}

/** The woven gold border band (`zb`), for hems of zari and brocade pieces. */
export function borderPattern(hex: string): string {
  const deep = shade(hex, -0.35)
  return `<pattern id="zb" width="16" height="18" patternUnits="userSpaceOnUse"><rect width="16" height="18" fill="${GOLD}"/><path d="M0 3h16M0 15h16" stroke="${GOLD_LIGHT}" stroke-width="1.5"/><path d="M0 9l4-4 4 4 4-4 4 4-4 4-4-4-4 4z" fill="${deep}" opacity=".8"/></pattern>`
}
