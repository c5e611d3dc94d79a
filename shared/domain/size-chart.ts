/**
 * Which size chart a product shows. A chart is found by its code, and the first of these that
 * exists applies: the product's own chart (the `size_guide` it names), then its designer's (the
 * code `designer-` and the designer's name in lower-case words joined by hyphens), then its
 * categories' (a category's slug), in the product's category order.
 */

/** The code of the size chart of the designer `name` (`designer-anita-dongre` for "Anita Dongre"). */
export function designerChartCode(name: string): string {
  const words = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `designer-${words}`
}

/** The chart codes of a product, the one that applies first (the rule above). */
export function chartCodes(
  own: unknown,
  designer: string | null | undefined,
  categorySlugs: readonly (string | null | undefined)[],
): string[] {
  const codes: string[] = []
  if (typeof own === 'string' && own) codes.push(own)
  if (designer?.trim()) codes.push(designerChartCode(designer))
  for (const slug of categorySlugs) if (slug) codes.push(slug)
  return codes
}
