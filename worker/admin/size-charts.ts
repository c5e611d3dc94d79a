/**
 * Size charts from the back office. A chart has a code, and what the code names is what it applies
 * to: a category's slug makes it the chart of every product of that category; a designer's chart
 * code (`designer-` and the designer's name, shared/domain/size-chart.ts; the form picks the
 * designer and makes the code) the chart of every product of that designer; any other code is a
 * chart a product names as its own (its `size_guide`, chosen on the product's form). A product
 * shows its own chart, else its designer's, else its category's, beside the size picker.
 * - Rows are typed one per line, cells separated by commas or tabs, the first line the header;
 *   every row has the header's number of cells (at most 12 cells, 40 rows, 40 characters a cell).
 * - Saving writes the chart through the catalogue's writer (its trigger moves the reference
 *   version on, so memoised charts are stale at once) with its audit row, and purges the product
 *   pages.
 */

import { designerChartCode } from '@shared/domain/size-chart'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { sizeGuideStatement } from '../catalog/writer'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { auditStatement } from './audit'
import { requiredText } from './input'

const MAX_CELLS = 12
const MAX_ROWS = 40
const MAX_CELL_CHARS = 40

export const SizeChartSchema = z.object({
  // A designer's chart: its code is made from the name (the code typed, if any, is not used).
  designer: z.string().trim().max(100, 'designer is too long').optional(),
  code: z
    .string({ error: 'code is required' })
    .trim()
    .toLowerCase()
    .max(60, 'code is too long (at most 60 characters)')
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      'code: lower-case letters, digits and single hyphens (a category slug or a name)',
    )
    .optional()
    .or(z.literal('')),
  title: requiredText('title', 100),
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

/** The designers of the catalogue, by name (what a designer's chart is picked from). */
export async function designerNames(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT json_extract(doc, '$.designer_name') AS name FROM products
       WHERE json_extract(doc, '$.designer_name') <> '' ORDER BY name LIMIT 500`,
    )
    .all<{ name: string }>()
  return results.map((r) => r.name)
}

/** Every chart, by code, with what it applies to in words. */
export async function listSizeCharts(db: D1Database) {
  const [charts, categories] = await db.batch([
    db.prepare('SELECT id, code, doc FROM size_guides ORDER BY code LIMIT 500'),
    db.prepare(
      'SELECT slug, name FROM categories WHERE slug IN (SELECT code FROM size_guides) ORDER BY level, position',
    ),
  ])
  const categoryOf = new Map(
    ((categories?.results ?? []) as { slug: string; name: string }[]).map((c) => [c.slug, c.name]),
  )
  return ((charts?.results ?? []) as { id: number; code: string; doc: string }[]).map((r) => {
    const doc = JSON.parse(r.doc) as { title?: string; rows?: string[][]; note?: string; designer?: string }
    const category = categoryOf.get(r.code)
    const appliesTo = doc.designer
      ? `every product by ${doc.designer} without a chart of its own`
      : category
        ? `every product in ${category} without its own or its designer's chart`
        : 'the products that choose it on their form'
    return {
      id: r.id,
      code: r.code,
      title: doc.title ?? r.code,
      rows: doc.rows ?? [],
      note: doc.note ?? '',
      designer: doc.designer ?? '',
      appliesTo,
    }
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
  const designer = input.designer || undefined
  if (designer && !(await designerNames(db)).includes(designer))
    refuse('designer', `there is no designer ${designer} in the catalogue`)
  const code = designer ? designerChartCode(designer) : input.code
  if (!code) return refuse('code', 'code is required (or choose a designer)')
  const found = await db
    .prepare('SELECT id FROM size_guides WHERE code = ?1')
    .bind(code)
    .first<{ id: number }>()
  const next = await db
    .prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM size_guides')
    .first<{ id: number }>()
  const id = found?.id ?? Number(next?.id ?? 1)
  const doc = {
    code,
    title: input.title,
    rows,
    ...(input.note ? { note: input.note } : {}),
    ...(designer ? { designer } : {}),
  }
  await db.batch([
    sizeGuideStatement(db, { id, code, doc }),
    auditStatement(
      db,
      {
        actor,
        action: found ? 'size-chart.edit' : 'size-chart.create',
        target: `size-chart:${code}`,
        after: doc,
      },
      now,
    ),
  ])
  return { id, code, purged: purgedCount(await purgeCacheTags(env, ['product'])) }
}
