// A product's option values imported without labels take their labels from the attribute files of
// the same run (found by the attribute's code, else its id), whichever file comes first; a value
// the attribute files do not know keeps showing its option id, and the product's warning says so.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepareRun } from '../../../../scripts/catalogue/import/node-entry'

const fixture = (name: string) => {
  const file = path.join(import.meta.dirname, '../../../fixtures/import', name)
  return { file, text: readFileSync(file, 'utf8') }
}
const products = fixture('older-format.json')
const attributes = fixture('older-attributes.json')

/** The values of OLD-KURTA's options as the run writes its document. */
function kurtaValues(sql: string) {
  const at = sql.indexOf('"sku":"OLD-KURTA"')
  const start = sql.indexOf('"configurable_options":', at)
  expect(start).toBeGreaterThan(0)
  return [
    ...sql
      .slice(start, sql.indexOf('"configurable_children":', start))
      .matchAll(/"value_index":(\d+),"label":"([^"]*)"/g),
  ].map((m) => [Number(m[1]), m[2]])
}

describe('option labels from the attribute files of the run', () => {
  it('labels the values the attributes know (by code, else by id), keeps the id of the others', () => {
    // The attributes come after the products: every file is read before labels are looked up.
    const out = prepareRun([products, attributes], {})
    if (!out.ok) throw new Error(out.errors.map((e) => e.reason).join('\n'))
    expect(out.counts).toEqual({ product: 2, attribute: 2 })
    // Colour by its code; size by its id (157), its code differing; 192 is not in the file.
    expect(kurtaValues(out.sql)).toEqual([
      [61, 'Madder Red'],
      [63, 'Leaf Green'],
      [191, 'S'],
      [192, '192'],
    ])
    expect(out.warnings.filter((w) => w.product === 'OLD-KURTA').map((w) => w.message)).toContain(
      "configurable_options: 4 value(s) without a label: 3 labelled from the run's attribute files, 1 shown by their option id",
    )
  })

  it('without attribute files the values show their option ids', () => {
    const out = prepareRun([products], {})
    if (!out.ok) throw new Error('expected ok')
    expect(kurtaValues(out.sql).map(([, label]) => label)).toEqual(['61', '63', '191', '192'])
  })
})
