/**
 * Whether a product may hold its shop address (its URL path, the URL dispatcher's key): the
 * address is free when no other product's url_path is it and the dispatcher maps it to nothing
 * or to this product. Saving a product and publishing products in bulk both ask this one check.
 */
import { urlMappingKey } from '../catalog/url-map'

/** Why product `productId` may not hold the address `urlPath`, in words; null when it may. */
export async function addressTaken(env: Env, urlPath: string, productId: number): Promise<string | null> {
  const key = urlMappingKey(urlPath)
  const [other, mapped] = await Promise.all([
    env.DB.prepare('SELECT sku FROM products WHERE url_path = ?1 AND id <> ?2')
      .bind(key, productId)
      .first<{ sku: string }>(),
    env.URL_MAPPINGS.get<{ type: string; id?: number }>(key, 'json'),
  ])
  if (other || (mapped && !(mapped.type === 'product' && mapped.id === productId)))
    return `the address /${key} is already taken${other ? ` by ${other.sku}` : ''}`
  return null
}

/** A picked product left out of the change, and why (its name and address for the operator). */
export interface Refusal {
  id: number
  sku: string
  name: string
  url: string
  why: string
}

/**
 * The drafts among `products` that may not be published: their address is another product's (two
 * drafts sharing one are both refused) or the dispatcher maps it elsewhere; the check a single
 * save makes.
 */
export async function addressesTaken(
  env: Env,
  products: { id: number; sku: string; doc: Record<string, unknown> }[],
): Promise<Refusal[]> {
  const refused: Refusal[] = []
  for (const p of products) {
    if (p.doc.status === 1) continue
    const key = urlMappingKey(String(p.doc.url_path ?? ''))
    const why = await addressTaken(env, key, p.id)
    if (why) refused.push({ id: p.id, sku: p.sku, name: String(p.doc.name ?? p.sku), url: `/${key}`, why })
  }
  return refused
}
