/** Colour arithmetic for the generated art: mixing, shading and a light/dark test on #rrggbb. */

const parse = (hex: string) => {
  const n = Number.parseInt(hex.slice(1, 7), 16)
  return [n >> 16, (n >> 8) & 255, n & 255] as const
}
const toHex = (rgb: readonly number[]) =>
  `#${rgb
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`

/** `a` mixed with `b`: t = 0 is `a`, 1 is `b`. */
export function mix(a: string, b: string, t: number): string {
  const x = parse(a)
  const y = parse(b)
  return toHex(x.map((v, i) => v + ((y[i] ?? 0) - v) * t))
}

/** Lighter (positive t) or darker (negative t) by mixing with white or black. */
export const shade = (hex: string, t: number) => (t >= 0 ? mix(hex, '#ffffff', t) : mix(hex, '#000000', -t))

/** Whether a colour is light enough that dark ink reads on it (relative luminance above 0.5). */
export function isLight(hex: string): boolean {
  const [r, g, b] = parse(hex)
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 > 0.55
}

/** The ink a motif is drawn in on a ground: a tint on dark grounds, a shade on light ones. */
export const ink = (hex: string, strength = 0.55) =>
  isLight(hex) ? shade(hex, -strength * 0.6) : shade(hex, strength)

/** FNV-1a: a stable number from a string (layout choices that must not change between renders). */
export function hash(s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}
