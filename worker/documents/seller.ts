/**
 * The label as its tax documents name it, configured per environment (vars): legal name, address,
 * GSTIN, the state it is registered in (it must be the GSTIN's own state), the letter of
 * undertaking for exports without IGST, and the prefixes of its two document series. Read exactly
 * the same way by the worker and by `npm run check-config`.
 */
import { DOCUMENT_PREFIX_RE } from '@shared/domain/gst'
import { type GstState, gstinProblem, normaliseGstin, stateFromRegion } from '@shared/domain/gst-states'
import type { Supplier } from '@shared/domain/tax-document'

/** The demo seller's GSTIN (wrangler.toml's development and staging vars): never production's. */
export const DEMO_SELLER_GSTIN = '29AADCO4321K1ZC'

export interface SellerConfig {
  supplier: Supplier
  invoicePrefix: string
  creditNotePrefix: string
}

/** The vars, by name, and what each means (check-config prints these). */
export const SELLER_VARS = {
  SELLER_LEGAL_NAME: 'the legal name on the GST registration',
  SELLER_ADDRESS: 'the registered address, lines separated by |',
  SELLER_GSTIN: 'the GSTIN invoices carry',
  SELLER_STATE: "the state of registration (name or GST code; the GSTIN's own state)",
  SELLER_LUT: 'the letter of undertaking reference (ARN) for exports without IGST; empty = exports pay IGST',
  INVOICE_PREFIX: 'the tax invoice series prefix (1-3 capital letters or digits)',
  CREDIT_NOTE_PREFIX: 'the credit note series prefix (1-3 capital letters or digits, not the invoice one)',
} as const

type SellerVars = Partial<Record<keyof typeof SELLER_VARS, unknown>>

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/**
 * Reads the seller vars: the configuration, or what is wrong with them (one line per var). Missing
 * vars are problems too: without them no invoice can be issued.
 */
export function readSellerConfig(vars: SellerVars): { config: SellerConfig } | { problems: string[] } {
  const problems: string[] = []
  const legalName = text(vars.SELLER_LEGAL_NAME)
  const address = text(vars.SELLER_ADDRESS)
    .split('|')
    .map((l) => l.trim())
    .filter(Boolean)
  const gstin = normaliseGstin(text(vars.SELLER_GSTIN))
  const stateText = text(vars.SELLER_STATE)
  const lut = text(vars.SELLER_LUT)
  const invoicePrefix = text(vars.INVOICE_PREFIX) || 'INV'
  const creditNotePrefix = text(vars.CREDIT_NOTE_PREFIX) || 'CN'
  if (!legalName || legalName.length > 200) problems.push('SELLER_LEGAL_NAME: 1 to 200 characters')
  if (address.length === 0 || address.length > 6 || address.some((l) => l.length > 200))
    problems.push('SELLER_ADDRESS: 1 to 6 lines of at most 200 characters, separated by |')
  const gstinWrong = gstinProblem(gstin)
  if (gstinWrong) problems.push(`SELLER_GSTIN: ${gstin || '(empty)'} is not a GSTIN: ${gstinWrong}`)
  const state: GstState | null = stateFromRegion(stateText)
  if (!state)
    problems.push(`SELLER_STATE: ${JSON.stringify(stateText)} is not an Indian state or union territory`)
  else if (!gstinWrong && gstin.slice(0, 2) !== state.code)
    problems.push(
      `SELLER_STATE: ${state.name} (${state.code}) is not the state of the GSTIN (${gstin.slice(0, 2)})`,
    )
  if (lut && !/^[A-Z0-9/-]{5,30}$/i.test(lut))
    problems.push(
      'SELLER_LUT: 5 to 30 letters, digits, / or - (the ARN of the letter of undertaking), or empty',
    )
  for (const [name, prefix] of [
    ['INVOICE_PREFIX', invoicePrefix],
    ['CREDIT_NOTE_PREFIX', creditNotePrefix],
  ] as const)
    if (!DOCUMENT_PREFIX_RE.test(prefix)) problems.push(`${name}: 1 to 3 capital letters or digits`)
  if (invoicePrefix === creditNotePrefix)
    problems.push('CREDIT_NOTE_PREFIX: must differ from INVOICE_PREFIX (each series is numbered on its own)')
  if (problems.length || !state) return { problems }
  return {
    config: {
      supplier: { legalName, address, gstin, state, lut: lut ? lut.toUpperCase() : null },
      invoicePrefix,
      creditNotePrefix,
    },
  }
}

const cache = new WeakMap<object, ReturnType<typeof readSellerConfig>>()

/** The seller configuration of an env (read once per env object), or null with the problems logged. */
export function sellerConfig(env: object): SellerConfig | null {
  let read = cache.get(env)
  if (!read) {
    read = readSellerConfig(env as SellerVars)
    cache.set(env, read)
    if ('problems' in read)
      console.error(
        JSON.stringify({ msg: 'tax documents not issued: seller configuration', problems: read.problems }),
      )
  }
  return 'config' in read ? read.config : null
}
