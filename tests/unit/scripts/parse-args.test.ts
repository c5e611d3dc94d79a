// The one argument parser of the scripts (scripts/lib.mjs parseArgs), called in-process: what a
// command line reads as, and the wrong uses it refuses with one line (exit 2) before a script runs.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseArgs, shopCommandLine } from '../../../scripts/lib.mjs'

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

describe('shopCommandLine', () => {
  /** Runs shopCommandLine on `argv` (its error handlers not installed); a refusal comes back as what it printed. */
  function shop(argv: string[]) {
    const printed: string[] = []
    vi.spyOn(process, 'on').mockReturnValue(process)
    vi.spyOn(console, 'error').mockImplementation((m) => void printed.push(String(m)))
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw Object.assign(new Error('exit'), { code })
    })
    try {
      return { values: shopCommandLine('usage: x\n', { flags: ['--dry-run'], argv }) }
    } catch (err) {
      return { exit: (err as { code: number }).code, printed }
    }
  }

  it("adds the options that say which shop, and answers wrangler's arguments for it", () => {
    const local = shop(['--persist-to', '/tmp/s', '--dry-run']).values
    expect(local).toMatchObject({ dryRun: true, yes: false, deployed: false })
    expect(local?.where).toEqual(['--local', '--persist-to', '/tmp/s'])
    const deployed = shop(['--env', 'staging', '--yes']).values
    expect(deployed).toMatchObject({ yes: true, deployed: true })
    expect(deployed?.where).toEqual(['--remote', '--env', 'staging'])
  })

  it('refuses --remote without --env, and an environment wrangler.toml does not define', () => {
    expect(shop(['--remote'])).toEqual({
      exit: 2,
      printed: ['✖ --remote needs --env staging|production (which deployed shop to change)'],
    })
    expect(shop(['--env', 'prod'])).toEqual({
      exit: 2,
      printed: ['✖ unknown --env prod: use one of staging, production'],
    })
  })
})
