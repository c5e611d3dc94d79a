#!/usr/bin/env node
// `node scripts/pincodes.mjs import FILE.csv`: loads the PIN codes where cash on delivery is
// offered into D1 (table cod_pincodes). Run it again with the same file and nothing changes.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { confirm, die, root, run, shopCommandLine, WHERE_HELP } from './lib.mjs'
import { parsePincodeCsv, pincodeSql } from './pincodes-csv.mjs'

const HELP = `
usage: node scripts/pincodes.mjs import FILE.csv [options]

Loads the Indian PIN codes where cash on delivery is offered (D1 table cod_pincodes).
FILE.csv: one PIN code per row, "pincode[,city[,state]]"; an optional header row; blank lines
skipped. A PIN code is six digits, the first not 0. Any bad row rejects the whole file (nothing is
written). Importing the same file twice leaves the table as it was (rows are upserted by PIN code).

options:
  --replace           also delete PIN codes that are not in the file (the file becomes the whole list)
  --dry-run           check the file and print the SQL without running it
${WHERE_HELP}
`

const args = shopCommandLine(HELP, { flags: ['--replace', '--dry-run'], positionals: 2 })
const { yes, env, replace, dryRun, where, deployed } = args
const [command, file] = args.positionals
if (command !== 'import' || !file)
  die('which file? node scripts/pincodes.mjs import FILE.csv (--help lists the options)')

const { rows, errors } = parsePincodeCsv(readFileSync(file, 'utf8'), path.basename(file))
if (errors.length) {
  for (const e of errors.slice(0, 20)) console.error(e)
  if (errors.length > 20) console.error(`… and ${errors.length - 20} more`)
  die('nothing was imported: fix the rows above and run it again', 1)
}
if (rows.length === 0 && !replace) die(`${file}: no PIN codes found; nothing was imported`, 1)
const sql = pincodeSql(rows, { replace })
if (dryRun) {
  console.log(sql)
  process.exit(0)
}
if (deployed)
  await confirm(
    `${replace ? 'replace the' : 'add to the'} cash-on-delivery PIN codes of the DEPLOYED ${env} shop`,
    { yes },
  )
const sqlFile = path.join(root, '.tmp', 'pincodes-import.sql')
const { mkdirSync } = await import('node:fs')
mkdirSync(path.dirname(sqlFile), { recursive: true })
writeFileSync(sqlFile, sql)
run('wrangler', ['d1', 'execute', 'DB', ...where, '--file', sqlFile])
console.log(`${rows.length} PIN codes imported${replace ? ' (others removed)' : ''}.`)
