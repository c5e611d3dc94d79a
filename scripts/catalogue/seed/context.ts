/**
 * The generator's context (random source + category tree) and the small helpers every product
 * builder uses: slugs, price rounding, date arithmetic, special-price activity, image paths and
 * category references.
 */
import {
  COLORS,
  type ColorDef,
  type Textile,
  VIEW_SUFFIX,
  type View,
} from '../../../worker/pages/images/palette'
import { CATEGORY_DEFS } from './data'
import { createRng, type Rng } from './prng'
import { GENERATED_AT } from './types'

/** A URL slug: lower case, runs of other characters as one '-'. */
export const kebab = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/** A shop price: rounded to `step`, minus 1 (2,499 rather than 2,500), at least `step`. */
export const round = (n: number, step: number) => Math.max(step, Math.round(n / step) * step - 1)

/** A 'YYYY-MM-DD HH:MM:SS' date (UTC) moved by whole days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date.replace(' ', 'T')}Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 19).replace('T', ' ')
}

/** Whether a special price applies at the generation date (it is below the price and inside its window). */
export function specialApplies(
  price: number,
  special: number | null | undefined,
  from?: string | null,
  to?: string | null,
) {
  if (!special || special >= price) return false
  if (from && GENERATED_AT < from) return false
  if (to && GENERATED_AT > to) return false
  return true
}

/**
 * The image path (served by GET /img/:w/:h/...) of a garment in a colour: its textile (omitted when
 * plain) and its view (omitted for the front).
 */
export function productImagePath(
  silhouette: string,
  colorSlug: string,
  opts: { textile?: Textile; view?: View } = {},
): string {
  const textile = opts.textile && opts.textile !== 'plain' ? `-${opts.textile}` : ''
  const view = opts.view ? VIEW_SUFFIX[opts.view] : ''
  return `/p/${silhouette}-${colorSlug}${textile}${view ? `-${view}` : ''}.svg`
}

/** The gallery of a one-colour product: front, back (its hover image) and a close detail. */
export function threeViews(silhouette: string, colorSlug: string, name: string) {
  return (['front', 'back', 'detail'] as const).map((v, pos) => ({
    image: productImagePath(silhouette, colorSlug, { view: v === 'front' ? undefined : v }),
    pos,
    typ: 'image',
    lab: `${name}, ${v}`,
    vid: null,
  }))
}

export interface Ctx {
  rng: Rng
  /** Product names already given (names are unique across the catalogue). */
  names: Set<string>
  /** Names given per stem (the name without its collection word). */
  stems: Map<string, number>
  categories: Map<number, { name: string; slug: string; urlPath: string; parent: number }>
}

/** The context of one generation: the category tree with each category's URL path. */
export function createContext(rng: Rng): Ctx {
  const defs = new Map(CATEGORY_DEFS.map((d) => [d.id, d]))
  const urlPathOf = (id: number): string => {
    const d = defs.get(id)
    if (!d || d.id === 2) return d?.slug ?? ''
    return d.parent === 2 ? d.slug : `${urlPathOf(d.parent)}/${d.slug}`
  }
  return {
    rng,
    names: new Set(),
    stems: new Map(),
    categories: new Map(
      CATEGORY_DEFS.map((d) => [
        d.id,
        { name: d.name, slug: d.slug, urlPath: urlPathOf(d.id), parent: d.parent },
      ]),
    ),
  }
}

/** The category references (id, name, slug) a product document carries. */
export function categoryRefs(ctx: Ctx, ids: number[]) {
  return ids.flatMap((id) => {
    const c = ctx.categories.get(id)
    return c ? [{ category_id: id, name: c.name, slug: c.slug }] : []
  })
}

/** A category id with its ancestors, top-level category first (the root category 2 excluded). */
export function withParents(ctx: Ctx, id: number): number[] {
  const out: number[] = []
  let cur = ctx.categories.get(id)
  let curId = id
  while (cur && curId !== 2) {
    out.unshift(curId)
    curId = cur.parent
    cur = ctx.categories.get(curId)
  }
  return out
}

/** The colour with this slug (the demo data defines it). */
export const col = (slug: string) => COLORS.find((c) => c.slug === slug) as ColorDef

/** A product's own random source for its words (names, copy): independent of the shared stream. */
export function productRng(id: number): Rng {
  return createRng(Math.imul(id, 0x9e3779b1) ^ 0x5eed)
}
