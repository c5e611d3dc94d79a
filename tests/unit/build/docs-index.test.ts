// The guard on the documents a newcomer reads first:
// - docs/README.md indexes every document of docs/ (and the decision records as one group, and the
//   search engine's own README) in one bullet line each, and names nothing that does not exist;
// - every relative link of README.md and docs/README.md leads to a file or folder of the repository;
// - the README stays a front door: under 1,500 words, no line over 300 characters;
// - no document speaks of work rounds ("this round", "last round", "a round ago"): a document says
//   how the system is, and a measurement history dates its entries instead.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** The index's entries: the first link of each line that is a list item, as written. */
function indexEntries(text: string): string[] {
  return text
    .split('\n')
    .map((line) => /^- \[[^\]]*\]\(([^)\s]+)\)/.exec(line)?.[1])
    .filter((target): target is string => target !== undefined)
}

/** Every relative link target of a Markdown text (web addresses and in-page anchors skipped). */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''))
}

/** The links of `file` whose target is missing, each as "file → target". */
function brokenLinks(file: string): string[] {
  const dir = path.dirname(path.join(root, file))
  return relativeLinks(read(file))
    .filter((target) => !existsSync(path.resolve(dir, target)))
    .map((target) => `${file} → ${target}`)
}

const docs = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .sort()
/** What the index must name: every document, the decision records' folder, the engine's README. */
const required = [...docs, 'decisions/', '../worker/search/README.md']

describe('the docs index (docs/README.md)', () => {
  const entries = indexEntries(read('docs/README.md'))

  it('names every document of docs/, the decision records and the search engine README', () => {
    expect(required.filter((doc) => !entries.includes(doc))).toEqual([])
  })

  it('names each of them once', () => {
    expect(entries.filter((entry, i) => entries.indexOf(entry) !== i)).toEqual([])
  })

  it('names nothing that does not exist', () => {
    const dir = path.join(root, 'docs')
    expect(entries.filter((entry) => !existsSync(path.resolve(dir, entry)))).toEqual([])
  })
})

describe('the front door', () => {
  it('links only to files and folders that exist', () => {
    expect([...brokenLinks('README.md'), ...brokenLinks('docs/README.md')]).toEqual([])
  })

  it('is under 1,500 words with no line over 300 characters', () => {
    const text = read('README.md')
    expect(text.split(/\s+/).filter(Boolean).length).toBeLessThan(1500)
    const long = text.split('\n').flatMap((line, i) => (line.length > 300 ? [`line ${i + 1}`] : []))
    expect(long).toEqual([])
  })
})

describe('the documents', () => {
  const files = [
    'README.md',
    'worker/search/README.md',
    ...readdirSync(path.join(root, 'docs'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.join('docs', f)),
  ]
  const ROUNDS = /\b(this|last|previous|next) round\b|\brounds? ago\b/i

  it('never speak of work rounds', () => {
    const found = files.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (ROUNDS.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 80)}`] : [])),
    )
    expect(found).toEqual([])
  })
})
