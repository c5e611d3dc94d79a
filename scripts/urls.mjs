#!/usr/bin/env node
// `npm run urls -- <command>`: manage URL-dispatcher mappings in KV URL_MAPPINGS.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  capture,
  confirm,
  die,
  importTs,
  root,
  run,
  shopCommandLine,
  WHERE_HELP,
  withListedValue,
} from './lib.mjs'

const HELP = `
usage: npm run urls -- <command> [options]

commands:
  import FILE…   add or replace mappings from JSON {"path": mapping}, a JSON array [{key, value}],
                 or NDJSON of {key, value}; every record is checked first and a file with a bad
                 record imports nothing
  list           print every mapping (key, a tab, its value)
  delete KEY…    remove mappings

options (list only reads):
${WHERE_HELP}

A mapping value is one of:
  {"type":"product","sku":"VS1001","slug":"ruby-silk-saree","type_id":"configurable"}
  {"type":"category","slug":"sarees"}   {"type":"cms_page","identifier":"about-us"}
  {"type":"redirect","to":"/c/sale","status":301}
`

const args = shopCommandLine(HELP)
const { yes, env, where, deployed } = args
const [command, ...rest] = args.positionals
const tmpFile = (name) => {
  const file = path.join(root, '.tmp', `urls-${process.pid}-${Date.now()}-${name}.json`)
  mkdirSync(path.dirname(file), { recursive: true })
  return file
}

function readRecords(file) {
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    die(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`)
  }
  const trimmed = text.trim()
  try {
    if (trimmed.startsWith('{') && !trimmed.includes('\n{'))
      return Object.entries(JSON.parse(trimmed)).map(([key, value], i) => ({ key, value, line: i + 1 }))
    if (trimmed.startsWith('[')) return JSON.parse(trimmed).map((r, i) => ({ ...r, line: i + 1 }))
  } catch (err) {
    die(`${file}: not valid JSON (${err.message}); nothing imported`)
  }
  return trimmed
    .split('\n')
    .map((l, i) => [l, i + 1])
    .filter(([l]) => l.trim())
    .map(([l, line]) => {
      try {
        return { ...JSON.parse(l), line }
      } catch {
        return { key: null, value: null, line, parseError: true }
      }
    })
}

if (command === 'import') {
  if (!rest.length) die('import needs at least one FILE: npm run urls -- import mappings.json')
  // The rule is the dispatcher's (scripts/catalogue/import/url-mappings.ts).
  const { urlMappingProblem } = await importTs('scripts/catalogue/import/url-mappings.ts')
  const valid = []
  for (const file of rest) {
    const records = readRecords(file)
    const bad = records
      .map((r) => ({ r, reason: r.parseError ? 'not valid JSON' : urlMappingProblem(r.key, r.value) }))
      .filter((x) => x.reason)
    if (bad.length) {
      for (const { r, reason } of bad) console.error(`${file}:${r.line}: ${reason}`)
      console.error(`✖ ${file}: ${bad.length} bad record(s); nothing imported from this file`)
      process.exitCode = 1
      continue
    }
    valid.push({ file, records })
  }
  if (valid.length && deployed)
    await confirm(
      `write ${valid.reduce((n, v) => n + v.records.length, 0)} URL mapping(s) into the DEPLOYED ${env} shop`,
      { yes },
    )
  for (const { file, records } of valid) {
    const tmp = tmpFile('import')
    writeFileSync(
      tmp,
      JSON.stringify(withListedValue(records.map((r) => ({ key: r.key, value: JSON.stringify(r.value) })))),
    )
    run('wrangler', ['kv', 'bulk', 'put', tmp, '--binding', 'URL_MAPPINGS', ...where])
    console.log(`✔ ${file}: ${records.length} mapping(s) imported`)
  }
} else if (command === 'list') {
  if (rest.length) die(`list takes no arguments (got ${rest[0]})`)
  // One listing: mappings written by these scripts carry their value in the key's metadata.
  const keys = JSON.parse(capture('wrangler', ['kv', 'key', 'list', '--binding', 'URL_MAPPINGS', ...where]))
  const values = new Map(
    keys.filter((k) => typeof k.metadata?.v === 'string').map((k) => [k.name, k.metadata.v]),
  )
  // Others (written by the shop itself) are read in bulk: one call locally, 100 keys per call remotely.
  const missing = keys.map((k) => k.name).filter((name) => !values.has(name))
  const perCall = deployed ? 100 : Math.max(1, missing.length)
  for (let i = 0; i < missing.length; i += perCall) {
    const file = tmpFile('keys')
    writeFileSync(file, JSON.stringify(missing.slice(i, i + perCall)))
    const out = capture('wrangler', ['kv', 'bulk', 'get', file, '--binding', 'URL_MAPPINGS', ...where])
    const got = JSON.parse(out.slice(out.indexOf('{')))
    for (const [name, entry] of Object.entries(got)) values.set(name, entry?.value ?? '')
  }
  for (const { name } of keys) console.log(`${name}\t${values.get(name) ?? ''}`)
  console.log(`${keys.length} mapping(s)`)
} else if (command === 'delete') {
  if (!rest.length) die('delete needs at least one KEY: npm run urls -- delete old/path')
  if (deployed) await confirm(`delete ${rest.length} URL mapping(s) from the DEPLOYED ${env} shop`, { yes })
  const file = tmpFile('delete')
  writeFileSync(file, JSON.stringify(rest))
  run('wrangler', ['kv', 'bulk', 'delete', file, '--binding', 'URL_MAPPINGS', '--force', ...where])
  console.log(`✔ ${rest.length} mapping(s) deleted`)
} else {
  die(
    command
      ? `unknown command ${command}: use import, list or delete (npm run urls -- --help)`
      : 'which command? import FILE… | list | delete KEY… (npm run urls -- --help)',
  )
}
