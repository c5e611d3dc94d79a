/**
 * Size charts from the back office. A chart has a code: a category's slug makes it the chart of
 * every product of that category; any other code is a chart a product names as its own (its
 * `size_guide`, chosen on the product's form), which wins over its category's. The product page
 * shows the chart beside the size picker of a product sold in sizes.
 * - Rows are typed one per line, cells separated by commas or tabs, the first line the header;
 *   every row has the header's number of cells (at most 12 cells, 40 rows, 40 characters a cell).
 * - Saving writes the chart through the catalogue's writer (its trigger moves the reference
 *   version on, so memoised charts are stale at once) with its audit row, and purges the product
 *   pages.
 */
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { sizeGuideStatement } from '../catalog/writer'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { auditStatement } from './audit'

const MAX_CELLS = 12
const MAX_ROWS = 40
const MAX_CELL_CHARS = 40

export const SizeChartSchema = z.object({
  code: z
    .string({ error: 'code is required' })
    .trim()
    .toLowerCase()
    .min(1, 'code is required')
    .max(60, 'code is too long (at most 60 characters)')
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      'code: lower-case letters, digits and single hyphens (a category slug or a name)',
    ),
  title: z
    .string({ error: 'title is required' })
    .trim()
    .min(1, 'title is required')
    .max(100, 'title is too long'),
  rows: z.string({ error: 'rows are required' }).max(10_000, 'the rows are too long'),
  note: z.string().trim().max(300, 'note is too long (at most 300 characters)').optional(),
})

function refuse(field: string, message: string): never {
  throw new HTTPException(400, {
    message: `Invalid size chart: ${message}`,
    cause: { fields: { [field]: message } },
  })
}

/** The rows typed, as cells (the rules in this file's header). */
function chartRows(text: string): string[][] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  if (lines.length < 2) refuse('rows', 'type a header line and at least one row')
  if (lines.length > MAX_ROWS + 1) refuse('rows', `at most ${MAX_ROWS} rows`)
  const rows = lines.map((l) => l.split(/\t|,/).map((c) => c.trim()))
  const width = (rows[0] as string[]).length
  if (width > MAX_CELLS) refuse('rows', `at most ${MAX_CELLS} cells a row`)
  rows.forEach((r, i) => {
    if (r.length !== width) refuse('rows', `line ${i + 1} has ${r.length} cells; the header has ${width}`)
    if (r.some((c) => c.length > MAX_CELL_CHARS))
      refuse('rows', `line ${i + 1}: a cell is longer than ${MAX_CELL_CHARS} characters`)
  })
  return rows
}

/** Every chart, by code. */
export async function listSizeCharts(db: D1Database) {
  const { results } = await db.prepare('SELECT id, code, doc FROM size_guides ORDER BY code LIMIT 500').all<{
    id: number
    code: string
    doc: string
  }>()
  return results.map((r) => {
    const doc = JSON.parse(r.doc) as { title?: string; rows?: string[][]; note?: string }
    return { id: r.id, code: r.code, title: doc.title ?? r.code, rows: doc.rows ?? [], note: doc.note ?? '' }
  })
}

/** Creates or replaces the chart of `code`. */
export async function saveSizeChart(
  env: Env,
  input: z.infer<typeof SizeChartSchema>,
  actor: string,
  now: number,
) {
  const db = env.DB
  const rows = chartRows(input.rows)
  const found = await db
    .prepare('SELECT id FROM size_guides WHERE code = ?1')
    .bind(input.code)
    .first<{ id: number }>()
  const next = await db
    .prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM size_guides')
    .first<{ id: number }>()
  const id = found?.id ?? Number(next?.id ?? 1)
  const doc = { code: input.code, title: input.title, rows, ...(input.note ? { note: input.note } : {}) }
  await db.batch([
    sizeGuideStatement(db, { id, code: input.code, doc }),
    auditStatement(
      db,
      {
        actor,
        action: found ? 'size-chart.edit' : 'size-chart.create',
        target: `size-chart:${input.code}`,
        after: doc,
      },
      now,
    ),
  ])
  return { id, code: input.code, purged: purgedCount(await purgeCacheTags(env, ['product'])) }
}
