/**
 * Labelled form controls with inline errors: every field has a <label>, errors are announced
 * (aria-invalid + aria-describedby pointing at the message).
 */
import type { ReactNode } from 'react'

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

/** A text input with its label and inline error. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  type = 'text',
  autoComplete,
  required,
  inputMode,
}: TextFieldProps) {
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <FieldLabel id={id} label={label} required={required} />
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        required={required}
        {...errorAria(id, error)}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <FieldError id={errorId(id)} error={error} />
    </div>
  )
}

interface SelectFieldProps {
  id: string
  label: string
  value: string
  options: readonly { value: string; label: string }[]
  onChange: (value: string) => void
  error?: string
  required?: boolean
  autoComplete?: string
}

/** A select with its label and inline error. */
export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  error,
  required,
  autoComplete,
}: SelectFieldProps) {
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <FieldLabel id={id} label={label} required={required} />
      <select
        id={id}
        name={id}
        value={value}
        autoComplete={autoComplete}
        {...errorAria(id, error)}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId(id)} error={error} />
    </div>
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
        onChange={(e) => onChange(e.currentTarget.checked)}
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
