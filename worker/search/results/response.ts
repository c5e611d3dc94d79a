/**
 * The answer's shapes: Elasticsearch's search response, and vue-storefront-api's compact form
 * (`response_format=compact`).
 */
import { isObject } from '../request/parse-values'
import type { AggResult } from '../semantics/results'

interface EsHit {
  _index: string
  _type: string
  _id: string
  _score: number | null
  _source: Record<string, unknown>
}

export interface EsSearchResponse {
  took: number
  timed_out: boolean
  _shards: { total: number; successful: number; skipped: number; failed: number }
  hits: { total: number; max_score: number | null; hits: EsHit[] }
  aggregations?: Record<string, AggResult>
}

/**
 * Product fields renamed by response_format=compact: vue-storefront-api's `products.fieldsToCompact`
 * map (the storefront's must be the same to read them back).
 */
const FIELDS_TO_COMPACT: Readonly<Record<string, string>> = {
  minimal_price: 'mp',
  has_options: 'ho',
  url_key: 'u',
  status: 's',
  required_options: 'ro',
  name: 'nm',
  tax_class_id: 'tci',
  description: 'desc',
  minimal_regular_price: 'mrp',
  final_price: 'fp',
  price: 'p',
  special_price: 'sp',
  original_final_price: 'ofp',
  original_price: 'op',
  original_special_price: 'osp',
  final_price_incl_tax: 'fpit',
  original_price_incl_tax: 'opit',
  price_incl_tax: 'pit',
  special_price_incl_tax: 'spit',
  final_price_tax: 'fpt',
  price_tax: 'pt',
  special_price_tax: 'spt',
  original_price_tax: 'opt',
  image: 'i',
  small_image: 'si',
  thumbnail: 't',
}

/**
 * Variant fields left out of a compact answer when equal to the product's own (vue-storefront-api's
 * `products.fieldsToCompress`): the storefront reads the product's value for them.
 */
const FIELDS_TO_COMPRESS: readonly string[] = [
  'max_regular_price',
  'max_price',
  'minimal_regular_price',
  'final_price',
  'price',
  'special_price',
  'original_final_price',
  'original_price',
  'original_special_price',
  'final_price_incl_tax',
  'price_incl_tax',
  'special_price_incl_tax',
  'final_price_tax',
  'price_tax',
  'special_price_tax',
  'image',
  'small_image',
  'thumbnail',
]

function compactFields(item: Record<string, unknown>): Record<string, unknown> {
  for (const [from, to] of Object.entries(FIELDS_TO_COMPACT)) {
    if (item[from] !== undefined) {
      item[to] = item[from]
      delete item[from]
    }
  }
  return item
}

/** A product in compact form: its variants without the fields equal to its own, then every field renamed. */
function compactProduct(source: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = { ...source }
  if (Array.isArray(item.configurable_children)) {
    item.configurable_children = item.configurable_children.map((child) => {
      if (!isObject(child)) return child
      const variant: Record<string, unknown> = { ...child }
      for (const field of FIELDS_TO_COMPRESS) if (source[field] === variant[field]) delete variant[field]
      return compactFields(variant)
    })
  }
  return compactFields(item)
}

/** The compact response: `{hits: [_source + _score], total, aggregations}`, product fields renamed. */
export function toCompactResponse(res: EsSearchResponse, entityType: string) {
  return {
    hits: res.hits.hits.map((h) =>
      entityType === 'product'
        ? { ...compactProduct(h._source), _score: h._score }
        : { ...h._source, _score: h._score },
    ),
    total: res.hits.total,
    aggregations: res.aggregations ?? {},
  }
}
