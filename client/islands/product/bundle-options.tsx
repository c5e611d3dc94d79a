/**
 * The bundle's options: one radio per linked product (its picture, its own price, and 'Out Of Stock'
 * with the radio disabled when it cannot ship) and the option's quantity, with their errors.
 */
import { ListImage } from '@shared/components/catalog/list-image'
import { FormError } from '@shared/components/form-error'
import type { FormProduct } from '@shared/components/product/view'
import { formatUnitPrice } from '@shared/domain/currency'
import { finalPrice } from '@shared/domain/price-window'
import { MSG } from '@shared/i18n/messages'
import type { BundleChoices } from './bundle-choices'
import { isOutOfStockPiece } from './set-pieces'

type BundleOption = FormProduct['bundle_options'][number]
type BundleChoice = BundleChoices[number]

function BundleOptionField({
  option,
  choice,
  errors,
  now,
  currency,
  set,
}: {
  option: BundleOption
  choice: BundleChoice
  errors: Record<string, string>
  now: number
  currency: string
  set: (c: Partial<BundleChoice>) => void
}) {
  const selError = errors[`bundleOption_${option.option_id}`]
  const qtyError = errors[`bundleOptionQty_${option.option_id}`]
  return (
    <fieldset className="bundle-option" data-testid={`bundle-option-${option.option_id}`}>
      <legend>{`${option.title}${option.required ? ' *' : ''}`}</legend>
      {option.product_links.map((link) => {
        const unit =
          link.product && (link.product.price ?? 0) > 0 ? finalPrice(link.product, now) : (link.price ?? 0)
        const out = isOutOfStockPiece(link.product)
        const image = (link.product as { image?: string | null } | null | undefined)?.image
        return (
          <label
            key={link.id}
            className="bundle-option__link"
            data-testid="bundle-link"
            data-sku={link.sku}
            data-out-of-stock={out ? '' : undefined}
          >
            <input
              type="radio"
              name={`bundle-${option.option_id}`}
              value={link.id}
              checked={choice.linkId === link.id}
              // A piece out of stock cannot be chosen: the set would not ship.
              disabled={out}
              onChange={() => set({ linkId: link.id, qty: String(link.qty ?? 1) })}
            />
            {image ? <ListImage path={image} size="cart" shown={{ width: 48, height: 48 }} /> : null}
            {link.product?.name ?? link.sku} <span className="price">{formatUnitPrice(unit, currency)}</span>
            {out ? <span className="badge badge--oos">{MSG.outOfStockBadge}</span> : null}
          </label>
        )
      })}
      <FormError message={selError} />
      <label className="qty-input">
        Quantity
        <input
          type="number"
          min={0}
          inputMode="numeric"
          value={choice.qty}
          aria-invalid={!!qtyError}
          data-testid={`bundle-qty-${option.option_id}`}
          onChange={(e) => set({ qty: e.currentTarget.value })}
        />
      </label>
      <FormError message={qtyError} />
    </fieldset>
  )
}

export function BundleOptions({
  options,
  choices,
  errors,
  now,
  currency,
  onChange,
}: {
  options: readonly BundleOption[]
  choices: BundleChoices
  errors: Record<string, string>
  now: number
  currency: string
  onChange: (update: (prev: BundleChoices) => BundleChoices) => void
}) {
  return (
    <fieldset className="bundle-options" data-testid="bundle-options">
      <legend>Bundle options</legend>
      {options.map((option) => {
        const choice = choices[option.option_id] ?? { linkId: null, qty: '1' }
        return (
          <BundleOptionField
            key={option.option_id}
            option={option}
            choice={choice}
            errors={errors}
            now={now}
            currency={currency}
            set={(c) => onChange((prev) => ({ ...prev, [option.option_id]: { ...choice, ...c } }))}
          />
        )
      })}
    </fieldset>
  )
}
