/**
 * Option labels from the attribute files of the same run: a product's option value imported
 * without a label (the older format's `configurable_options[].values[]` carry `value_index` only)
 * shows its option id until labelled. When the run imports the attribute index too
 * (`attribute_code`, `attribute_id`, `options[{value, label}]`), each such value takes its
 * option's label, the attribute found by its code, else by its id. The product's warning then says
 * how many values were labelled so and how many still show their id.
 */
import type { ImportRecord, ImportWarning } from './transform'

/** The older format's warning about values without labels (./older-format.ts), by its start. */
const UNLABELLED = /^configurable_options: (\d+) value\(s\) without a label/

/** Labels the products' unlabelled option values from the run's attributes; rewrites their warnings. */
export function labelOptionsFromAttributes(
  records: ReadonlyArray<{ file: string; record: ImportRecord }>,
  warnings: ImportWarning[],
): void {
  // attribute code or id → option value → label
  const labels = new Map<string, Map<string, string>>()
  for (const {
    record: { entry },
  } of records) {
    if (entry.type !== 'attribute') continue
    const options = new Map(entry.doc.options.map((o) => [String(o.value), o.label] as const))
    labels.set(`code:${entry.doc.attribute_code}`, options)
    labels.set(`id:${entry.doc.attribute_id}`, options)
  }
  if (labels.size === 0) return
  for (const { file, record } of records) {
    const { entry } = record
    if (entry.type !== 'product') continue
    let unlabelled = 0
    let labelled = 0
    for (const option of entry.doc.configurable_options) {
      const known = labels.get(`code:${option.attribute_code}`) ?? labels.get(`id:${option.attribute_id}`)
      for (const value of option.values) {
        // A value without a label was given its option id as its label on the way in.
        if (value.label !== String(value.value_index)) continue
        unlabelled++
        const label = known?.get(String(value.value_index))
        if (label) {
          value.label = label
          labelled++
        }
      }
    }
    if (labelled === 0) continue
    const product = entry.doc.sku
    const warning = warnings.find((w) => w.product === product && UNLABELLED.test(w.message))
    const message =
      labelled === unlabelled
        ? `configurable_options: ${labelled} value(s) without a label labelled from the run's attribute files`
        : `configurable_options: ${unlabelled} value(s) without a label: ${labelled} labelled from the run's attribute files, ${unlabelled - labelled} shown by their option id`
    if (warning) warning.message = message
    else warnings.push({ file, line: record.line, product, message })
  }
}
