/**
 * The product's custom options: a text field, a select, or radio buttons/checkboxes, each with its
 * price delta (fixed or percent) and its error once the shopper tried to add to the cart.
 */
import { FormError } from '@shared/components/form-error'
import type { FormProduct } from '@shared/components/product/view'
import { formatUnitPrice } from '@shared/domain/currency'
import type { CustomValues } from './cart-lines'

type CustomOption = FormProduct['custom_options'][number]
type CustomValue = CustomValues[number]

/** ' (+₹100)' or ' (+10%)' after a label; nothing without a price. */
function priceLabel(p: number | null | undefined, type: string | null | undefined, currency: string): string {
  return p ? ` (+${type === 'percent' ? `${p}%` : formatUnitPrice(p, currency)})` : ''
}

/** One option's input: where it stands (`id`), what is chosen, its error, and how a choice is kept. */
interface OptionInputProps {
  option: CustomOption
  id: string
  value: CustomValue
  error: string | undefined
  currency: string
  set: (v: CustomValue) => void
}

/** The option's title; a required option's carries a star. */
const optionTitle = (option: CustomOption) => `${option.title}${option.is_require ? ' *' : ''}`

/** Radio buttons (one value) or checkboxes (several values). */
function choiceList({ option, id, value, error, currency, set }: OptionInputProps) {
  return (
    <fieldset aria-invalid={!!error}>
      <legend>{optionTitle(option)}</legend>
      {option.values.map((v) => {
        const checked =
          option.type === 'checkbox'
            ? Array.isArray(value) && value.includes(v.option_type_id)
            : value === v.option_type_id
        return (
          <label key={v.option_type_id} className="custom-option__choice">
            <input
              type={option.type === 'checkbox' ? 'checkbox' : 'radio'}
              name={id}
              value={v.option_type_id}
              checked={checked}
              onChange={() => {
                if (option.type !== 'checkbox') return set(v.option_type_id)
                // Toggled from what is shown, not from the box (see CheckboxField).
                const list = Array.isArray(value) ? value : []
                set(checked ? list.filter((x) => x !== v.option_type_id) : [...list, v.option_type_id])
              }}
            />
            {`${v.title}${priceLabel(v.price, v.price_type, currency)}`}
          </label>
        )
      })}
    </fieldset>
  )
}

/** The input of one option: a text field, a select, or a choice list. */
function optionInput(props: OptionInputProps) {
  const { option, id, value, error, currency, set } = props
  if (option.type === 'field') {
    return (
      <label htmlFor={id}>
        {`${optionTitle(option)}${priceLabel(option.price, option.price_type, currency)}`}
        <input
          id={id}
          type="text"
          value={typeof value === 'string' ? value : ''}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => set(e.currentTarget.value)}
        />
      </label>
    )
  }
  if (option.type === 'select' || option.type === 'drop_down') {
    return (
      <label htmlFor={id}>
        {optionTitle(option)}
        <select
          id={id}
          value={value == null ? '' : String(value)}
          aria-invalid={!!error}
          onChange={(e) => set(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
        >
          <option value="">Choose…</option>
          {option.values.map((v) => (
            <option key={v.option_type_id} value={v.option_type_id}>
              {`${v.title}${priceLabel(v.price, v.price_type, currency)}`}
            </option>
          ))}
        </select>
      </label>
    )
  }
  return choiceList(props)
}

export function CustomOptions({
  options,
  values,
  errors,
  currency,
  onChange,
}: {
  options: readonly CustomOption[]
  values: CustomValues
  errors: Record<string, string>
  currency: string
  onChange: (optionId: number, value: CustomValue) => void
}) {
  return (
    <fieldset className="custom-options" data-testid="custom-options">
      <legend>Options</legend>
      {options.map((option) => {
        const id = `co-${option.option_id}`
        const error = errors[`customOption_${option.option_id}`]
        return (
          <div
            key={option.option_id}
            className="custom-option"
            data-testid={`custom-option-${option.option_id}`}
          >
            {optionInput({
              option,
              id,
              value: values[option.option_id] ?? null,
              error,
              currency,
              set: (v) => onChange(option.option_id, v),
            })}
            <FormError id={`${id}-error`} message={error} />
          </div>
        )
      })}
    </fieldset>
  )
}
