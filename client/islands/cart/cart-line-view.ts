/** Pure helpers that turn a cart-store line into what the cart UI shows. */
import { IMAGE_SIZES } from '@shared/config/images'
import { imageUrl } from '@shared/domain/image-url'
import type { CartLine } from '../../state/cart'

interface OptionView {
  label: string
  value: string
}

/**
 * The chosen options of a line: the server's list when the line has its totals (everything the
 * shopper configured, named by the catalogue: variant, custom options, bundle and grouped pieces),
 * else what the line itself carries (configurable and custom options, `options`).
 */
export function lineOptions(line: CartLine): OptionView[] {
  const server = (line.totals as { extension_attributes?: { options?: unknown } } | undefined)
    ?.extension_attributes?.options
  if (Array.isArray(server)) {
    return (server as { label?: unknown; value?: unknown }[]).flatMap((o) =>
      typeof o.label === 'string' ? [{ label: o.label, value: String(o.value ?? '') }] : [],
    )
  }
  const out: OptionView[] = []
  const ext = (line.product_option as { extension_attributes?: Record<string, unknown> } | undefined)
    ?.extension_attributes
  const conf = ext?.configurable_item_options
  if (Array.isArray(conf)) {
    for (const o of conf as { label?: unknown; value?: unknown; option_value?: unknown }[]) {
      if (typeof o.label === 'string')
        out.push({ label: o.label, value: String(o.value ?? o.option_value ?? '') })
    }
  }
  const custom = ext?.custom_options
  if (Array.isArray(custom)) {
    for (const o of custom as {
      label?: unknown
      title?: unknown
      option_value?: unknown
      value?: unknown
    }[]) {
      const label = typeof o.label === 'string' ? o.label : typeof o.title === 'string' ? o.title : null
      if (label) out.push({ label, value: String(o.value ?? o.option_value ?? '') })
    }
  }
  if (out.length) return out
  const fallback = line.options ?? (line.totals as { options?: unknown } | undefined)?.options
  const parsed = typeof fallback === 'string' ? safeJson(fallback) : fallback
  if (Array.isArray(parsed)) {
    for (const o of parsed as { label?: unknown; value?: unknown }[]) {
      if (typeof o.label === 'string') out.push({ label: o.label, value: String(o.value ?? '') })
    }
  }
  return out
}

/** 'Made to order — ships by …' when the server's totals say the line's piece is made to order. */
export function lineMadeToOrder(line: CartLine): string | null {
  const note = (line.totals as { extension_attributes?: { made_to_order?: unknown } } | undefined)
    ?.extension_attributes?.made_to_order
  return typeof note === 'string' ? note : null
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s)
  } catch {
    return null
  }
}

/** Link to the product page of a line (its url_path, else /p/{parentSku}/{slug}/{sku}). */
export function lineHref(line: CartLine): string | null {
  if (typeof line.url_path === 'string' && line.url_path)
    return line.url_path.startsWith('/') ? line.url_path : `/${line.url_path}`
  if (typeof line.slug === 'string' && line.slug) {
    const parent = line.parentSku || line.sku
    const base = `/p/${encodeURIComponent(parent)}/${encodeURIComponent(line.slug)}`
    return parent !== line.sku ? `${base}/${encodeURIComponent(line.sku)}` : base
  }
  return null
}

/** The cart's thumbnail URL of an image (the cart image size, 150x150). */
export function cartThumbnail(image: unknown): string {
  const { width, height } = IMAGE_SIZES.cart
  return imageUrl(typeof image === 'string' ? image : null, width, height)
}

/** The image of a line (thumbnail or image). */
export function lineImage(line: CartLine): unknown {
  return line.thumbnail ?? line.image ?? line.small_image
}

/** The product types of the cart (decides whether cash on delivery is offered). */
export function cartTypeIds(lines: readonly CartLine[]): string[] {
  return lines.map((l) => String(l.type_id ?? l.product_type ?? 'simple'))
}
