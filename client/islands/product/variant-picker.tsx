/**
 * One configurable option's picker (colour swatches, sizes): values no variant offers are left out,
 * values not available with the other choices are marked unavailable, out-of-stock ones marked;
 * the size picker asks for a size when none was chosen and opens the size guide.
 */
import type { FormProduct } from '@shared/components/product/view'
import { colorSwatch } from '@shared/config/content'
import { isChildInStock } from '@shared/domain/availability'
import { availableOptionValues, type VariantSelection } from '@shared/domain/variants'
import { AVAILABILITY } from './availability-settings'

type ConfigurableOption = FormProduct['configurable_options'][number]

interface VariantPickerProps {
  product: FormProduct
  option: ConfigurableOption
  selection: VariantSelection
  /** A size was chosen by the shopper (or came with the URL). */
  sizeChosen: boolean
  /** Add to cart was tried without a size. */
  needSize: boolean
  hasSizeGuide: boolean
  sizeGuideOpen: boolean
  onChoose: (attribute: string, value: number) => void
  onToggleSizeGuide: () => void
}

export function VariantPicker(props: VariantPickerProps) {
  const { product, option, selection, sizeChosen } = props
  const code = option.attribute_code
  const available = new Set(availableOptionValues(product, selection, code, AVAILABILITY))
  const anyAvailable = new Set(availableOptionValues(product, {}, code, AVAILABILITY))
  const chosenLabel = option.values.find((v) => v.value_index === selection[code])?.label
  return (
    <fieldset className={`variant-picker variant-picker--${code}`} data-testid={`picker-${code}`}>
      <legend>
        {option.label}
        {chosenLabel && (code !== 'size' || sizeChosen) ? `: ${chosenLabel}` : ''}
      </legend>
      <div className="variant-picker__values">
        {option.values
          .filter((v) => anyAvailable.has(v.value_index))
          .map((v) => {
            const isSelected = selection[code] === v.value_index && (code !== 'size' || sizeChosen)
            const isAvailable = available.has(v.value_index)
            const child = product.configurable_children.find(
              (c) =>
                c[code as 'color' | 'size'] === v.value_index &&
                Object.entries(selection).every(
                  ([k, val]) => k === code || val == null || c[k as 'color' | 'size'] === val,
                ),
            )
            const oos = child ? !isChildInStock(child) : false
            const swatch = code === 'color' ? colorSwatch(v.label) : null
            return (
              <button
                key={v.value_index}
                type="button"
                className={`variant-option${isSelected ? ' variant-option--selected' : ''}${
                  isAvailable ? '' : ' variant-option--unavailable'
                }${oos ? ' variant-option--oos' : ''}${swatch ? ' variant-option--swatch' : ''}`}
                aria-pressed={isSelected}
                aria-label={`${option.label} ${v.label}${isAvailable ? '' : ' (unavailable)'}${oos ? ' (out of stock)' : ''}`}
                title={v.label}
                data-testid={`option-${code}-${v.value_index}`}
                style={swatch ? { background: swatch } : undefined}
                onClick={() => props.onChoose(code, v.value_index)}
              >
                {swatch ? <span className="visually-hidden">{v.label}</span> : v.label}
              </button>
            )
          })}
      </div>
      {code === 'size' && props.needSize ? (
        <p className="form-error" role="alert" data-testid="size-required">
          Please select a size.
        </p>
      ) : null}
      {code === 'size' && props.hasSizeGuide ? (
        <button
          type="button"
          className="link-button"
          aria-expanded={props.sizeGuideOpen}
          aria-controls="size-guide"
          onClick={props.onToggleSizeGuide}
          data-testid="size-guide-button"
        >
          Size guide
        </button>
      ) : null}
    </fieldset>
  )
}
