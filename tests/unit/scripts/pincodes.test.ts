// The operator's PIN-code import: strict rows (any bad one rejects the file), a header allowed,
// duplicates kept once, and SQL that is idempotent (upserts; --replace deletes only what the file lacks).
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parsePincodeCsv, pincodeSql } from '../../../scripts/pincodes-csv.mjs'

describe('parsePincodeCsv', () => {
  it('reads pincode,city,state rows after an optional header, skipping blank lines', () => {
    const { rows, errors } = parsePincodeCsv(
      '\uFEFFpincode,city,state\r\n560001,Bengaluru,Karnataka\n\n110001,"New Delhi, Central",Delhi\n400001\n',
    )
    expect(errors).toEqual([])
    expect(rows).toEqual([
      { pincode: '560001', city: 'Bengaluru', state: 'Karnataka' },
      { pincode: '110001', city: 'New Delhi, Central', state: 'Delhi' },
      { pincode: '400001', city: '', state: '' },
    ])
  })
  it('names every bad row with file and line', () => {
    const { errors } = parsePincodeCsv('560001\n012345\n56000\n5600011\nabcdef\n560 001\n', 'pins.csv')
    expect(errors).toEqual([
      'pins.csv:2: "012345" is not a PIN code (six digits, the first not 0)',
      'pins.csv:3: "56000" is not a PIN code (six digits, the first not 0)',
      'pins.csv:4: "5600011" is not a PIN code (six digits, the first not 0)',
      'pins.csv:5: "abcdef" is not a PIN code (six digits, the first not 0)',
      'pins.csv:6: "560 001" is not a PIN code (six digits, the first not 0)',
    ])
  })
  it('keeps a PIN code listed twice once (the last row wins)', () => {
    const { rows } = parsePincodeCsv('560001,Old\n560001,New\n')
    expect(rows).toEqual([{ pincode: '560001', city: 'New', state: '' }])
  })
})

describe('pincodeSql', () => {
  it('upserts, escapes quotes, and deletes only with --replace', () => {
    const rows = [{ pincode: '560001', city: "O'Hara", state: 'KA' }]
    const sql = pincodeSql(rows, { stamp: 'T' })
    expect(sql).toContain("('560001','O''Hara','KA','T')")
    expect(sql).toContain('ON CONFLICT(pincode) DO UPDATE')
    expect(sql).not.toContain('DELETE')
    expect(pincodeSql(rows, { replace: true, stamp: 'T' })).toMatch(
      /^DELETE FROM cod_pincodes WHERE pincode NOT IN \('560001'\);/,
    )
  })
})

describe('node scripts/pincodes.mjs', () => {
  const cli = path.resolve(import.meta.dirname, '../../../scripts/pincodes.mjs')
  it('--help explains the file format and options', () => {
    const out = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' })
    expect(out).toContain('usage: node scripts/pincodes.mjs import FILE.csv')
    expect(out).toContain('--replace')
    expect(out).toContain('--dry-run')
  })
})
