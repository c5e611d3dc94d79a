// The one argument parser of the scripts (scripts/lib.mjs parseArgs), called in-process: what a
// command line reads as, and the wrong uses it refuses with one line (exit 2) before a script runs.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseArgs } from '../../../scripts/lib.mjs'

const spec = {
  flags: ['--yes', '--dry-run'],
  options: ['--env', '--persist-to'],
}

/** Runs parseArgs on `argv`; a refusal or --help comes back as what it printed and its exit code. */
function parse(argv: string[], extra: { positionals?: number } = {}) {
  const printed: string[] = []
  vi.spyOn(console, 'error').mockImplementation((m) => void printed.push(String(m)))
  vi.spyOn(console, 'log').mockImplementation((m) => void printed.push(String(m)))
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw Object.assign(new Error('exit'), { code })
  })
  try {
    return { values: parseArgs('usage: x\n', { ...spec, ...extra, argv }) as Record<string, unknown> }
  } catch (err) {
    return { exit: (err as { code: number }).code, printed }
  }
}

afterEach(() => vi.restoreAllMocks())

describe('parseArgs', () => {
  it('reads flags, options (camelCased) and positionals in any order', () => {
    expect(parse(['import', '--persist-to', '/tmp/s', 'a.json', '--yes', 'b.json']).values).toEqual({
      yes: true,
      dryRun: false,
      env: undefined,
      persistTo: '/tmp/s',
      positionals: ['import', 'a.json', 'b.json'],
    })
  })

  it('prints the help and exits 0 for -h or --help anywhere, whatever else is there', () => {
    for (const argv of [['-h'], ['--bogus', '--help'], ['--env', 'x', '-h']])
      expect(parse(argv)).toEqual({ exit: 0, printed: ['usage: x'] })
  })

  it('refuses an unknown option, a missing value, a value that is another option, surplus words', () => {
    expect(parse(['--yse'])).toEqual({
      exit: 2,
      printed: ['✖ unknown option --yse (--help lists the options)'],
    })
    expect(parse(['--env'])).toEqual({ exit: 2, printed: ['✖ --env needs a value'] })
    expect(parse(['--env', '--yes'])).toEqual({ exit: 2, printed: ['✖ --env needs a value'] })
    expect(parse(['a', 'b'], { positionals: 1 })).toEqual({
      exit: 2,
      printed: ['✖ unknown argument b (--help lists the options)'],
    })
    expect(parse(['a'], { positionals: 0 }).exit).toBe(2)
  })

  it('takes an option value as it is given', () => {
    expect(parse(['--env', 'production=1']).values?.env).toBe('production=1')
    expect(parse(['--persist-to', '-']).values?.persistTo).toBe('-')
  })
})
