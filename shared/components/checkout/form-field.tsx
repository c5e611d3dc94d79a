/**
 * Labelled form controls with inline errors: every field has a <label>, errors are announced
 * (aria-invalid + aria-describedby pointing at the message).
 */
import type { ChangeEvent, ReactNode } from 'react'

/** The field's inline error, announced when it appears. */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="field__error" role="alert">
      {error}
    </p>
  ) : null
}

/** The field's label; a required field carries a star hidden from screen readers (the control says required). */
function FieldLabel({ id, label, required }: { id: string; label: string; required: boolean | undefined }) {
  return (
    <label htmlFor={id}>
      {label}
      {required ? <span aria-hidden="true"> *</span> : null}
    </label>
  )
}

/** The id of a control's inline error message. */
const errorId = (id: string) => `${id}-error`

/** How a control points at its inline error: marked invalid and described by it while there is one. */
function errorAria(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': errorId(id) } : {}
}

/** A labelled control's box: the label above, the control, its inline error below. */
function Field({
  id,
  label,
  required,
  error,
  children,
}: {
  id: string
  label: string
  required: boolean | undefined
  error: string | undefined
  children: ReactNode
}) {
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <FieldLabel id={id} label={label} required={required} />
      {children}
      <FieldError id={errorId(id)} error={error} />
    </div>
  )
}

interface TextFieldProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  type?: 'text' | 'email' | 'password' | 'tel'
  autoComplete?: string
  required?: boolean
  inputMode?: 'text' | 'numeric' | 'tel' | 'email'
}

/** What an input and a select both carry: the id (also the name), the value, the autofill hint, the error link. */
function controlProps({
  id,
  value,
  onChange,
  error,
  autoComplete,
}: Pick<TextFieldProps, 'id' | 'value' | 'onChange' | 'error' | 'autoComplete'>) {
  return {
    id,
    name: id,
    value,
    autoComplete,
    ...errorAria(id, error),
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange(e.currentTarget.value),
  }
}

/** A text input with its label and inline error. */
export function TextField({ label, type = 'text', required, inputMode, ...props }: TextFieldProps) {
  return (
    <Field id={props.id} label={label} required={required} error={props.error}>
      <input {...controlProps(props)} type={type} inputMode={inputMode} required={required} />
    </Field>
  )
}

/** What a field with a fixed label and behaviour is given: where it stands, its value and its error. */
type OwnFieldProps = Pick<TextFieldProps, 'id' | 'value' | 'onChange' | 'error'>

/** The e-mail address of every form that asks for one (checkout, sign-in, sign-up, profile). */
export function EmailField(props: OwnFieldProps) {
  return (
    <TextField
      {...props}
      label="Email address"
      type="email"
      autoComplete="email"
      inputMode="email"
      required
    />
  )
}

/**
 * A required password: `current` lets the browser fill the saved password, `new` lets it offer a
 * generated one (sign-up, a new password).
 */
export function PasswordField({
  label = 'Password',
  purpose,
  ...props
}: OwnFieldProps & { label?: string; purpose: 'current' | 'new' }) {
  return <TextField {...props} label={label} type="password" autoComplete={`${purpose}-password`} required />
}

interface SelectFieldProps extends Omit<TextFieldProps, 'type' | 'inputMode'> {
  options: readonly { value: string; label: string }[]
}

/** A select with its label and inline error. */
export function SelectField({ label, options, required, ...props }: SelectFieldProps) {
  return (
    <Field id={props.id} label={label} required={required} error={props.error}>
      <select {...controlProps(props)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
}

/** A checkbox with its label and inline error. */
export function CheckboxField({
  id,
  label,
  checked,
  onChange,
  error,
}: {
  id: string
  label: ReactNode
  checked: boolean
  onChange: (checked: boolean) => void
  error?: string
}) {
  return (
    <div className={`field field--checkbox${error ? ' field--error' : ''}`}>
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={checked}
        {...errorAria(id, error)}
        // The new value is the opposite of the one shown, not the box's own: a re-render pending when
        // the click came can run between a click listener and the change event and put the box back.
        onChange={() => onChange(!checked)}
      />
      <label htmlFor={id}>{label}</label>
      <FieldError id={errorId(id)} error={error} />
    </div>
  )
}

/** The first- and last-name pair of every form (checkout, address, sign-up, profile), side by side. */
export function NameFields({
  ids,
  first,
  last,
  onFirst,
  onLast,
  errors,
}: {
  /** The inputs' ids: [first name, last name]. */
  ids: readonly [string, string]
  first: string
  last: string
  onFirst: (value: string) => void
  onLast: (value: string) => void
  errors: { first?: string; last?: string }
}) {
  return (
    <div className="field-row">
      <TextField
        id={ids[0]}
        label="First name"
        value={first}
        onChange={onFirst}
        error={errors.first}
        autoComplete="given-name"
        required
      />
      <TextField
        id={ids[1]}
        label="Last name"
        value={last}
        onChange={onLast}
        error={errors.last}
        autoComplete="family-name"
        required
      />
    </div>
  )
}
