#!/usr/bin/env node
// `node scripts/pincodes.mjs import FILE.csv`: loads the PIN codes where cash on delivery is
// offered into D1 (table cod_pincodes). Run it again with the same file and nothing changes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { root, run } from './lib.mjs'
import { parsePincodeCsv, pincodeSql } from './pincodes-csv.mjs'

const HELP = `Usage: node scripts/pincodes.mjs import FILE.csv [--replace] [--remote | --persist-to DIR] [--dry-run]

Loads the Indian PIN codes where cash on delivery is offered (D1 table cod_pincodes).
FILE.csv: one PIN code per row, "pincode[,city[,state]]"; an optional header row; blank lines skipped.
A PIN code is six digits, the first not 0. Any bad row rejects the whole file (nothing is written).

  --replace      also delete PIN codes that are not in the file (the file becomes the whole list)
  --remote       the deployed D1 (default: the local one)
  --persist-to   a separate local state directory
  --dry-run      check the file and print the SQL without running it
  --help         this text

Importing the same file twice leaves the table as it was (rows are upserted by PIN code).`

const args = process.argv.slice(2)
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(HELP)
  process.exit(args.length === 0 ? 2 : 0)
}
const take = (name) => {
  const i = args.indexOf(name)
  if (i < 0) return undefined
  const v = args[i + 1]
  args.splice(i, 2)
  return v
}
const flag = (name) => {
  const i = args.indexOf(name)
  if (i >= 0) args.splice(i, 1)
  return i >= 0
}
const persist = take('--persist-to')
const remote = flag('--remote')
const replace = flag('--replace')
const dryRun = flag('--dry-run')
const [command, file, ...extra] = args
if (command !== 'import' || !file || extra.length) {
  console.error(`Unknown arguments: ${args.join(' ')}\n\n${HELP}`)
  process.exit(2)
}

const { rows, errors } = parsePincodeCsv(readFileSync(file, 'utf8'), path.basename(file))
if (errors.length) {
  for (const e of errors.slice(0, 20)) console.error(e)
  if (errors.length > 20) console.error(`… and ${errors.length - 20} more`)
  console.error('Nothing was imported.')
  process.exit(1)
}
if (rows.length === 0 && !replace) {
  console.error(`${file}: no PIN codes found. Nothing was imported.`)
  process.exit(1)
}
const sql = pincodeSql(rows, { replace })
if (dryRun) {
  console.log(sql)
  process.exit(0)
}
const dir = path.join(root, '.tmp')
mkdirSync(dir, { recursive: true })
const sqlFile = path.join(dir, 'pincodes-import.sql')
writeFileSync(sqlFile, sql)
const where = remote ? ['--remote'] : ['--local', ...(persist ? ['--persist-to', persist] : [])]
run('wrangler', ['d1', 'execute', 'DB', ...where, '--file', sqlFile])
console.log(`${rows.length} PIN codes imported${replace ? ' (others removed)' : ''}.`)
