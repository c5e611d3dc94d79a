#!/usr/bin/env node
// `npm run urls -- <command>`: manage URL-dispatcher mappings in KV URL_MAPPINGS.
//   import FILE   JSON object {"path": mapping}, JSON array [{key, value}], or NDJSON of {key, value}
//   list          print every mapping (key → value)
//   delete KEY…   remove mappings
// Options: --remote (the deployed namespace), --persist-to DIR (a separate local state).
// A mapping value is one of (see worker/platform/dispatcher/lookups.ts):
//   {"type":"product","sku":"VS1001","slug":"ruby-silk-saree","type_id":"configurable"}
//   {"type":"category","slug":"sarees"}   {"type":"cms_page","identifier":"about-us"}
//   {"type":"redirect","to":"/c/sale","status":301}
// Every record is validated first; a file with a bad record imports nothing.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { capture, root, run } from './lib.mjs'

const args = process.argv.slice(2)
const flag = (name) => {
  const i = args.indexOf(name)
  if (i < 0) return undefined
  const v = args[i + 1]
  args.splice(i, 2)
  return v
}
const remote = args.includes('--remote')
if (remote) args.splice(args.indexOf('--remote'), 1)
const persist = flag('--persist-to')
const where = remote ? ['--remote'] : ['--local', ...(persist ? ['--persist-to', persist] : [])]
const [command, ...rest] = args

/** Returns a reason string when the mapping is invalid, else null. */
function mappingError(key, value) {
  if (typeof key !== 'string' || !key || key.length > 512 || key.startsWith('/'))
    return 'key must be a path without a leading slash'
  if (!value || typeof value !== 'object') return 'value must be an object'
  const str = (v) => typeof v === 'string' && v.length > 0
  switch (value.type) {
    case 'product':
      return str(value.sku) && str(value.slug) ? null : 'product mapping needs sku and slug'
    case 'category':
      return str(value.slug) ? null : 'category mapping needs slug'
    case 'cms_page':
      return str(value.identifier) ? null : 'cms_page mapping needs identifier'
    case 'redirect':
      return str(value.to) &&
        value.to.startsWith('/') &&
        !value.to.startsWith('//') &&
        !value.to.startsWith('/\\')
        ? null
        : 'redirect mapping needs a same-origin path in "to"'
    default:
      return `unknown mapping type ${JSON.stringify(value.type)}`
  }
}

function readRecords(file) {
  const text = readFileSync(file, 'utf8')
  const trimmed = text.trim()
  if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
    return Object.entries(JSON.parse(trimmed)).map(([key, value], i) => ({ key, value, line: i + 1 }))
  }
  if (trimmed.startsWith('[')) return JSON.parse(trimmed).map((r, i) => ({ ...r, line: i + 1 }))
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
  if (!rest.length) throw new Error('usage: npm run urls -- import FILE…')
  for (const file of rest) {
    const records = readRecords(file)
    const bad = records
      .map((r) => ({ r, reason: r.parseError ? 'not valid JSON' : mappingError(r.key, r.value) }))
      .filter((x) => x.reason)
    if (bad.length) {
      for (const { r, reason } of bad) console.error(`${file}:${r.line}: ${reason}`)
      console.error(`✖ ${file}: ${bad.length} bad record(s); nothing imported from this file`)
      process.exitCode = 1
      continue
    }
    const tmp = path.join(root, '.tmp', `urls-${Date.now()}.json`)
    mkdirSync(path.dirname(tmp), { recursive: true })
    writeFileSync(tmp, JSON.stringify(records.map((r) => ({ key: r.key, value: JSON.stringify(r.value) }))))
    run('wrangler', ['kv', 'bulk', 'put', tmp, '--binding', 'URL_MAPPINGS', ...where])
    console.log(`✔ ${file}: ${records.length} mapping(s) imported`)
  }
} else if (command === 'list') {
  const keys = JSON.parse(capture('wrangler', ['kv', 'key', 'list', '--binding', 'URL_MAPPINGS', ...where]))
  for (const { name } of keys) {
    const value = capture('wrangler', [
      'kv',
      'key',
      'get',
      name,
      '--binding',
      'URL_MAPPINGS',
      ...where,
    ]).trim()
    console.log(`${name}\t${value}`)
  }
  console.log(`${keys.length} mapping(s)`)
} else if (command === 'delete') {
  if (!rest.length) throw new Error('usage: npm run urls -- delete KEY…')
  for (const key of rest) run('wrangler', ['kv', 'key', 'delete', key, '--binding', 'URL_MAPPINGS', ...where])
} else {
  console.error('usage: npm run urls -- import FILE… | list | delete KEY…  [--remote] [--persist-to DIR]')
  process.exit(2)
}
