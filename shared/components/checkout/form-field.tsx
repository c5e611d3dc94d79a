/**
 * Labelled form controls with inline errors: every field has a <label>, errors are announced
 * (aria-invalid + aria-describedby pointing at the message).
 */
import type { ReactNode } from 'react'

export interface TextFieldProps {
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
  const errId = `${id}-error`
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      {error ? (
        <p id={errId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

export interface SelectFieldProps {
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
  const errId = `${id}-error`
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        id={id}
        name={id}
        value={value}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
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
  const errId = `${id}-error`
  return (
    <div className={`field field--checkbox${error ? ' field--error' : ''}`}>
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={errId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
