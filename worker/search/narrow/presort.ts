/** The visit list in the search's own order, from the hot columns the isolate holds. */
import type { SortSpec } from '../dsl'
import type { HotColumnValues } from '../held/hot-columns'
/**
 * Orders the listed products (`out`, ascending ids `ids`) as the statement sorts them, when every
 * sort key is a hot number or text column without missing values: by each key in its order, then
 * by id. Answers whether it did (else the list stays in id order).
 */
export function presort(
  out: number[],
  ids: number[],
  sort: SortSpec[],
  hot: Map<string, HotColumnValues> | undefined,
): boolean {
  if (sort.length === 0) return false
  const columns: HotColumnValues[] = []
  for (const s of sort) {
    const column = hot?.get(s.field)
    if (!column || column.kind === 'term' || column.nulls > 0) return false
    columns.push(column)
  }
  // Stable sorts from the last key to the first: products equal on every key stay in id order.
  let order = ids.map((_, i) => i)
  for (let k = sort.length - 1; k >= 0; k--) {
    const column = columns[k] as HotColumnValues
    const dir = (sort[k] as SortSpec).order === 'asc' ? 1 : -1
    const key = new Float64Array(ids.length)
    ids.forEach((id, i) => {
      key[i] = column.values[id] as number
    })
    order =
      column.kind === 'text'
        ? countingSort(order, key, dir)
        : order.sort((a, b) => ((key[a] as number) - (key[b] as number)) * dir)
  }
  const copy = out.slice()
  order.forEach((from, to) => {
    out[to] = copy[from] as number
  })
  return true
}

/** `order` stably sorted by `key` (small non-negative integers: a text column's ranks), `dir` 1 or -1. */
function countingSort(order: number[], key: Float64Array, dir: number): number[] {
  let max = 0
  for (const i of order) max = Math.max(max, key[i] as number)
  const starts = new Int32Array(max + 2)
  const slot = (i: number) => (dir === 1 ? (key[i] as number) : max - (key[i] as number))
  for (const i of order) starts[slot(i) + 1] = (starts[slot(i) + 1] as number) + 1
  for (let r = 1; r < starts.length; r++) starts[r] = (starts[r] as number) + (starts[r - 1] as number)
  const out = new Array<number>(order.length)
  for (const i of order) {
    const r = slot(i)
    out[starts[r] as number] = i
    starts[r] = (starts[r] as number) + 1
  }
  return out
}
