// Reading an operator's CSV of serviceable PIN codes for cash on delivery, and the SQL that loads
// it. One PIN code per row: `pincode[,city[,state]]`; a first row whose first cell is not a PIN
// code (e.g. `pincode,city,state`) is a header. Blank lines are skipped. A PIN code is six digits,
// the first not 0; any bad row rejects the whole file (file:line: reason), so nothing half-loads.

const PIN_RE = /^[1-9][0-9]{5}$/
const MAX_TEXT = 100

/** Splits one CSV line into cells (double-quoted cells may contain commas and "" for a quote). */
function cells(line) {
  const out = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (ch === '"') quoted = false
      else cur += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      out.push(cur)
      cur = ''
    } else cur += ch
  }
  out.push(cur)
  return out.map((c) => c.trim())
}

/**
 * Parses the CSV text: `{rows: [{pincode, city, state}], errors: ['name:line: reason']}`. A PIN
 * code listed twice is kept once (the last row wins).
 */
export function parsePincodeCsv(text, name = 'input') {
  const rows = new Map()
  const errors = []
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (!line) return
    const [pin = '', city = '', state = ''] = cells(line)
    if (i === 0 && !/^\d/.test(pin)) return
    if (!PIN_RE.test(pin)) {
      errors.push(`${name}:${i + 1}: "${pin.slice(0, 20)}" is not a PIN code (six digits, the first not 0)`)
      return
    }
    if (city.length > MAX_TEXT || state.length > MAX_TEXT) {
      errors.push(`${name}:${i + 1}: city and state are at most ${MAX_TEXT} characters`)
      return
    }
    rows.set(pin, { pincode: pin, city, state })
  })
  return { rows: [...rows.values()], errors }
}

const sqlText = (s) => `'${String(s).replaceAll("'", "''")}'`

/**
 * SQL that makes the table hold the rows: an upsert per row (running it twice changes nothing);
 * with `replace`, PIN codes missing from the file are deleted first.
 */
export function pincodeSql(rows, { replace = false, stamp = new Date().toISOString() } = {}) {
  const out = []
  if (replace) {
    const keep = rows.map((r) => sqlText(r.pincode)).join(',')
    out.push(keep ? `DELETE FROM cod_pincodes WHERE pincode NOT IN (${keep});` : 'DELETE FROM cod_pincodes;')
  }
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows
      .slice(i, i + 200)
      .map((r) => `(${sqlText(r.pincode)},${sqlText(r.city)},${sqlText(r.state)},${sqlText(stamp)})`)
    out.push(
      `INSERT INTO cod_pincodes (pincode, city, state, updated_at) VALUES ${values.join(',')} ON CONFLICT(pincode) DO UPDATE SET city = excluded.city, state = excluded.state, updated_at = excluded.updated_at;`,
    )
  }
  return out.join('\n')
}
