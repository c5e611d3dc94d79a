/**
 * The pieces every back-office screen is built from: a labelled field (with the reason its value
 * was refused), a money field, a choice, a form that posts with the operator's CSRF token, a
 * change that needs a second deliberate click, and a table. They work without script (the back
 * office's CSP allows none): a form posts and comes back to its page.
 */
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import { baseCurrency, shopTimeZone } from '@shared/config/store'
import { formatMinorForOperator } from '@shared/domain/currency'
import { storedInstant, zonedDateTime } from '@shared/domain/shop-clock'
import { createContext, type InputHTMLAttributes, type Key, type ReactNode, useContext } from 'react'
import { can, type Permission, type Role } from '../roles'

/** The operator's CSRF token, for every form of the page (provided once by renderAdmin). */
export const Csrf = createContext('')
/** The operator's role: a form the role may not use is not shown (provided once by renderAdmin). */
export const OperatorRole = createContext<Role | null>(null)

/**
 * A form post that was refused, re-rendered on its page: the form it came from (its action and
 * `_form` key), what the operator typed (never a password), the reason, and the reason of each
 * refused field.
 */
export interface FormReply {
  action: string
  form: string
  values: Record<string, string>
  message: string
  fields: Record<string, string>
}
/** The refused post being re-rendered, if any (provided once by renderAdmin). */
export const Reply = createContext<FormReply | null>(null)
/** The form a control is in: its action and key. */
const InForm = createContext<{ action: string; form: string } | null>(null)

/** The refused post when it came from the form around the caller, else null. */
function useReply(): FormReply | null {
  const reply = useContext(Reply)
  const form = useContext(InForm)
  return reply && form && reply.action === form.action && reply.form === form.form ? reply : null
}

/** An amount as operators read it: the Indian grouping (₹2,20,706.15) when the shop's locale is en-IN. */
export const money = (minor: number | null, currency: string) => formatMinorForOperator(minor ?? 0, currency)

/** A document's amount in rupees (a product's price, a coupon's amount) in paise; null for none. */
export const paise = (rupees: number | null | undefined) => (rupees == null ? null : Math.round(rupees * 100))

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
  // After a refused post, the field shows what was typed and why it was refused.
  const reply = useReply()
  const name = input.name ?? ''
  const typed = reply && input.type !== 'password' ? reply.values[name] : undefined
  const why = error ?? (reply ? reply.fields[name] : undefined)
  // A box keeps its tick as sent: ticked when the value sent is its own.
  const box = input.type === 'checkbox' || input.type === 'radio'
  const kept = box
    ? { defaultChecked: reply ? typed === String(input.value ?? 'on') : input.defaultChecked }
    : { defaultValue: typed ?? input.defaultValue }
  return (
    <label>
      {label} <input {...input} {...kept} aria-invalid={why ? true : undefined} />
      {why ? <strong role="alert">{why}</strong> : null}
    </label>
  )
}

/**
 * A yes/no box whose answer is always sent: an unticked box sends nothing, so a hidden `false`
 * goes before it, and the ticked box's `value` (default `true`), sent after it, is the one read.
 */
export function Toggle(props: { label: ReactNode; name: string; value?: string; defaultChecked?: boolean }) {
  return (
    <>
      <input type="hidden" name={props.name} value="false" />
      <Field
        label={props.label}
        type="checkbox"
        name={props.name}
        value={props.value ?? 'true'}
        defaultChecked={props.defaultChecked}
      />
    </>
  )
}

/** The reason a group of controls (`name`, e.g. a set of boxes) was refused, after a refused post. */
export function GroupError(props: { name: string }) {
  const why = useReply()?.fields[props.name]
  return why ? <strong role="alert">{why}</strong> : null
}

/** A labelled multi-line text field, keeping what was typed after a refused post like Field. */
export function TextArea(props: {
  label: ReactNode
  name: string
  defaultValue?: string
  required?: boolean
  maxLength?: number
  rows?: number
}) {
  const reply = useReply()
  const why = reply?.fields[props.name]
  const { label, ...area } = props
  return (
    <label>
      {label}{' '}
      <textarea
        {...area}
        defaultValue={reply?.values[props.name] ?? props.defaultValue}
        aria-invalid={why ? true : undefined}
      />
      {why ? <strong role="alert">{why}</strong> : null}
    </label>
  )
}

/**
 * An amount of money typed by the operator in rupees (the shop's currency), as people write it:
 * 5000, 5,000, 5,000.50 or ₹5,000.50 (read by `readAmount`). `minorValue` shows a stored amount
 * (paise) as operators read it, ₹87,199.00 in the Indian grouping, which is read back unchanged.
 */
export function MoneyInput({
  minorValue,
  ...input
}: Omit<FieldProps, 'inputMode'> & { minorValue?: number | null }) {
  const shown =
    minorValue === undefined || minorValue === null
      ? input.defaultValue
      : formatMinorForOperator(minorValue, baseCurrency())
  return <Field inputMode="decimal" {...input} defaultValue={shown} />
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
  const reply = useReply()
  return (
    <label>
      {props.label}{' '}
      <select name={props.name} defaultValue={reply?.values[props.name] ?? props.defaultValue}>
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

/**
 * A form posting to the back office's API with the CSRF token, coming back to `back`. Forms of a
 * page posting to the same action are told apart by `formKey`; a refused post comes back to its
 * form with the reason above the button.
 */
export function PostForm(props: {
  action: string
  back: string
  label: string
  /** The permission the form's route asks for; an operator whose role lacks it sees no form. */
  needs: Permission
  danger?: boolean
  buttonLabel?: string
  formKey?: string
  /** The form sends a file (multipart). */
  multipart?: boolean
  children?: ReactNode
}) {
  const csrf = useContext(Csrf)
  const role = useContext(OperatorRole)
  const reply = useContext(Reply)
  const form = props.formKey ?? ''
  const mine = reply && reply.action === props.action && reply.form === form ? reply : null
  // A form the role may not use is not shown; a post from it still gets its refusal in words.
  if (role && !can(role, props.needs))
    return mine ? (
      <p className="refused" role="alert">
        {mine.message}
      </p>
    ) : null
  return (
    <form
      className="inline"
      method="post"
      action={props.action}
      encType={props.multipart ? 'multipart/form-data' : undefined}
    >
      <input type="hidden" name="_csrf" value={csrf} />
      <input type="hidden" name="return_to" value={props.back} />
      {form ? <input type="hidden" name="_form" value={form} /> : null}
      {mine?.message ? (
        <p className="refused" role="alert">
          {mine.message}
        </p>
      ) : null}
      <InForm.Provider value={{ action: props.action, form }}>{props.children}</InForm.Provider>
      <button type="submit" className={props.danger ? 'danger' : undefined} aria-label={props.buttonLabel}>
        {props.label}
      </button>
    </form>
  )
}

type FoldedProps = {
  needs: Permission
  summary: string
  summaryLabel?: string
  action: string
  back: string
  label: string
  buttonLabel?: string
  formKey?: string
  children?: ReactNode
}

/**
 * A form folded behind `summary`, open again when its post was refused (so the reason and the
 * values typed are in view). Not the role's: nothing, or the refusal of a post from it.
 */
function Folded(props: FoldedProps & { explanation?: ReactNode; danger?: boolean }) {
  const reply = useContext(Reply)
  const role = useContext(OperatorRole)
  const form = { needs: props.needs, action: props.action, back: props.back, formKey: props.formKey }
  if (role && !can(role, props.needs)) return <PostForm {...form} label="" />
  const refused = reply?.action === props.action && reply.form === (props.formKey ?? '')
  return (
    <details open={refused || undefined}>
      <summary aria-label={props.summaryLabel}>{props.summary}</summary>
      {props.explanation ? <p>{props.explanation}</p> : null}
      <PostForm {...form} label={props.label} buttonLabel={props.buttonLabel} danger={props.danger}>
        {props.children}
      </PostForm>
    </details>
  )
}

/**
 * A change that cannot be taken back, in two deliberate steps without script: `summary` opens a
 * disclosure that says what will happen (`explanation`) and holds the real (red) button.
 */
export function Confirm(props: FoldedProps & { explanation: ReactNode }) {
  return <Folded {...props} danger />
}

/** A form folded away behind `summary` (an edit of a row). */
export function Unfold(props: FoldedProps) {
  return <Folded {...props} />
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
