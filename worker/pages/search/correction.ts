/**
 * "Showing results for …": the search engine forgives typos, so a misspelt query still finds
 * products. When a word of the query appears in none of the results' names but is a small edit away
 * from one of their words, the page names the corrected query so the shopper sees what was searched.
 */
import { SEARCH_FUZZINESS } from '@shared/config/catalog'
import { allowedEdits, editDistance } from '../../search'

/** Words of a text, lower-cased, accents folded, split on anything that is not a letter or digit. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/**
 * The query with each misspelt word replaced by the closest word of the found products' names, or
 * null when every word was found as typed (or nothing close enough was found).
 */
export function correctedQuery(query: string, names: readonly string[]): string | null {
  const vocabulary = new Set(names.flatMap(words))
  if (vocabulary.size === 0) return null
  let changed = false
  const out = words(query).map((word) => {
    if (vocabulary.has(word)) return word
    const max = allowedEdits(word, SEARCH_FUZZINESS)
    let best: string | null = null
    let bestEdits = max + 1
    for (const candidate of vocabulary) {
      const d = editDistance(word, candidate, max)
      if (d < bestEdits || (d === bestEdits && best !== null && candidate < best)) {
        best = candidate
        bestEdits = d
      }
    }
    if (best === null || bestEdits > max) return word
    changed = true
    return best
  })
  return changed ? out.join(' ') : null
}
