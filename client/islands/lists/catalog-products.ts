/**
 * The catalogue products of a list's skus (the wishlist's and compare's pieces are kept in the
 * browser as summaries): one search for the whole list, so sizes, stock and garment details are
 * the catalogue's as of now. undefined while loading; a sku not found (or withdrawn) maps to null.
 */
import { termsQuery } from '@shared/domain/terms-query'
import type { Product } from '@shared/schemas/catalog'
import { useEffect, useState } from 'react'
import { apiRaw } from '../../api'
import { CATALOG_PRODUCT_SEARCH, productFromSearch } from '../product/reload'

export function useCatalogProducts(skus: readonly string[]): Map<string, Product | null> | undefined {
  const key = [...skus].sort().join(',')
  const [products, setProducts] = useState<Map<string, Product | null>>()
  useEffect(() => {
    const list = key ? key.split(',') : []
    if (list.length === 0) return setProducts(new Map())
    void apiRaw(CATALOG_PRODUCT_SEARCH, {
      query: { request: JSON.stringify(termsQuery('sku', list)), size: list.length, from: 0 },
    })
      .then(({ status, body }) =>
        setProducts(new Map(list.map((sku) => [sku, status === 200 ? productFromSearch(body, sku) : null]))),
      )
      .catch(() => setProducts(new Map()))
  }, [key])
  return products
}
