/** What the AMP validator answers for one document. */
interface AmpValidation {
  status: string
  errors: { line: number; col: number; message: string }[]
}
/** The `<loc>`s of a sitemap document. */
export function sitemapLocs(xml: string): string[]
/** The AMP path of every product and category the sitemaps list, in their order. */
export function catalogueAmpPages(getText: (path: string) => Promise<string>): Promise<string[]>
/** Every category, the first two products of each SKU family and every `every`-th product besides. */
export function ampSample(pages: string[], every?: number): string[]
/** "path: HTTP n" or "path: line:col message | …" for each page that fails, sorted. */
export function ampFailures(
  pages: string[],
  getPage: (path: string) => Promise<{ status: number; text: string }>,
  validator: { validateString(html: string): AmpValidation },
  inFlight?: number,
): Promise<string[]>
