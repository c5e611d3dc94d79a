/**
 * The pieces every back-office screen is built from: a labelled field (with the reason its value
 * was refused), a money field, a choice, a form that posts with the operator's CSRF token, a
 * change that needs a second deliberate click, and a table. They work without script (the back
 * office's CSP allows none): a form posts and comes back to its page.
 */
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import { shopLocale, shopTimeZone } from '@shared/config/store'
import { formatMinor, formatMinorIndian } from '@shared/domain/currency'
import { storedInstant, zonedDateTime } from '@shared/domain/shop-clock'
import { createContext, type InputHTMLAttributes, type Key, type ReactNode, useContext } from 'react'

/** The operator's CSRF token, for every form of the page (provided once by renderAdmin). */
export const Csrf = createContext('')

/** An amount as operators read it: the Indian grouping (₹2,20,706.15) when the shop's locale is en-IN. */
export const money = (minor: number | null, currency: string) =>
  shopLocale() === 'en-IN' ? formatMinorIndian(minor ?? 0, currency) : formatMinor(minor ?? 0, currency)

/** A stored (UTC) time on the shop's clock: '2026-11-29 05:05' in Asia/Kolkata; '' for none. */
export const when = (stored: string | number | null | undefined) => {
  const ms = storedInstant(stored)
  return ms === null ? '' : zonedDateTime(ms, shopTimeZone())
}
export const statusLabel = (s: string) => ORDER_STATUS_LABELS[s as OrderStatus] ?? s

type FieldProps = { label: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>

/**
 * A labelled input: the label's text with the control inside the label (no id to pair). With an
 * `error` (why the value sent last was refused) the input is marked invalid and the reason,
 * announced to assistive technology, follows it inside the label.
 */
export function Field({ label, error, ...input }: FieldProps) {
  return (
    <label>
      {label} <input {...input} aria-invalid={error ? true : undefined} />
      {error ? <strong role="alert">{error}</strong> : null}
    </label>
  )
}

/**
 * An amount of money typed by the operator: in the shop's currency with up to two decimals
 * (1299.50), or, with `minorUnits`, a whole number of paise or cents (the unit refunds and store
 * credit are kept in).
 */
export function MoneyInput({
  minorUnits,
  label,
  ...input
}: Omit<FieldProps, 'inputMode'> & { minorUnits?: boolean }) {
  return <Field label={label} inputMode={minorUnits ? 'numeric' : 'decimal'} {...input} />
}

/** One option: its text, or [value sent, text shown]. */
type Option = string | readonly [string, string]

/** A labelled choice among fixed options. */
export function Choice(props: {
  label: ReactNode
  name: string
  options: readonly Option[]
  defaultValue?: string
}) {
  return (
    <label>
      {props.label}{' '}
      <select name={props.name} defaultValue={props.defaultValue}>
        {props.options.map((o) =>
          typeof o === 'string' ? (
            <option key={o}>{o}</option>
          ) : (
            <option key={o[0]} value={o[0]}>
              {o[1]}
            </option>
          ),
        )}
      </select>
    </label>
  )
}

/** A form posting to the back office's API with the CSRF token, coming back to `back`. */
export function PostForm(props: {
  action: string
  back: string
  label: string
  danger?: boolean
  buttonLabel?: string
  children?: ReactNode
}) {
  const csrf = useContext(Csrf)
  return (
    <form className="inline" method="post" action={props.action}>
      <input type="hidden" name="_csrf" value={csrf} />
      <input type="hidden" name="return_to" value={props.back} />
      {props.children}
      <button type="submit" className={props.danger ? 'danger' : undefined} aria-label={props.buttonLabel}>
        {props.label}
      </button>
    </form>
  )
}

/**
 * A change that cannot be taken back, in two deliberate steps without script: `summary` opens a
 * disclosure that says what will happen (`explanation`) and holds the real button.
 */
export function Confirm(props: {
  summary: string
  summaryLabel?: string
  explanation: ReactNode
  action: string
  back: string
  label: string
  buttonLabel?: string
  children?: ReactNode
}) {
  return (
    <details>
      <summary aria-label={props.summaryLabel}>{props.summary}</summary>
      <p>{props.explanation}</p>
      <PostForm
        action={props.action}
        back={props.back}
        label={props.label}
        buttonLabel={props.buttonLabel}
        danger
      >
        {props.children}
      </PostForm>
    </details>
  )
}

/** A column of a table: its heading and what a row shows in it. */
interface Column<Row> {
  header: ReactNode
  cell: (row: Row) => ReactNode
}

/** A table of `rows`, one heading per column; it scrolls sideways on a narrow screen. */
export function Table<Row>(props: {
  columns: readonly Column<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row, index: number) => Key
}) {
  return (
    <div className="scroll">
      <table>
        <thead>
          <tr>
            {props.columns.map((col, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed per table
              <th key={i}>{col.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, r) => (
            <tr key={props.rowKey(row, r)}>
              {props.columns.map((col, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed per table
                <td key={i}>{col.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
