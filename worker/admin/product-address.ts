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
