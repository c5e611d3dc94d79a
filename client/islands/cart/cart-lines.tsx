/**
 * The cart's lines (used by the cart page and the microcart): 150x150 thumbnail, name, options,
 * quantity stepper (update), and remove only after the shopper confirmed. The cart engine applies
 * the change and shows its notice ('Product quantity has been updated!').
 */

import { lineUnitPrice } from '@shared/domain/cart-line'
import { useState } from 'react'
import { getRuntime } from '../../engines/runtime/runtime'
import { type CartLine, type CartTotals, cartTotals } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'
import { Icon } from '../layout/icons'
import { formatPageAmount, formatPageLine } from '../page-price'
import { cartThumbnail, lineHref, lineImage, lineMadeToOrder, lineOptions } from './cart-line-view'
import { inPageCurrency } from './cart-totals'

function QtyStepper({ line }: { line: CartLine }) {
  const [busy, setBusy] = useState(false)
  const change = async (qty: number) => {
    if (qty < 1 || busy) return
    setBusy(true)
    try {
      await getRuntime().cart.updateQuantity(line.sku, qty)
    } finally {
      setBusy(false)
    }
  }
  const id = `qty-${line.sku}`
  return (
    <div className="qty-stepper">
      <button
        type="button"
        aria-label={`Decrease quantity of ${line.name}`}
        disabled={busy || line.qty <= 1}
        onClick={() => change(line.qty - 1)}
      >
        <Icon name="minus" />
      </button>
      <label htmlFor={id} className="visually-hidden">
        Quantity of {line.name}
      </label>
      <input
        id={id}
        type="number"
        min={1}
        inputMode="numeric"
        value={line.qty}
        data-testid="line-qty"
        onChange={(e) => {
          const q = Number.parseInt(e.currentTarget.value, 10)
          if (Number.isFinite(q) && q >= 1) void change(q)
        }}
      />
      <button
        type="button"
        aria-label={`Increase quantity of ${line.name}`}
        disabled={busy}
        onClick={() => change(line.qty + 1)}
      >
        <Icon name="plus" />
      </button>
    </div>
  )
}

function RemoveButton({ line }: { line: CartLine }) {
  const [asking, setAsking] = useState(false)
  if (!asking) {
    return (
      <button
        type="button"
        className="btn btn--link"
        onClick={() => setAsking(true)}
        data-testid="line-remove"
      >
        Remove
      </button>
    )
  }
  return (
    <div role="alertdialog" aria-label="Remove product" className="confirm">
      <p>Are you sure you would like to remove this item from the shopping cart?</p>
      <button
        type="button"
        className="btn btn--small"
        onClick={() => void getRuntime().cart.removeItem(line.sku)}
      >
        Yes, remove
      </button>
      <button type="button" className="btn btn--small btn--secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  )
}

/**
 * The server's amounts for a line, from the totals the summary shows (matched by the line's server
 * item id): null unless those totals are in the page's currency. A line's amount is never read
 * from an earlier totals read kept on the line, which may be in the currency the shopper just left.
 */
export function serverLineTotals(
  totals: CartTotals | null,
  line: Pick<CartLine, 'server_item_id'>,
): Record<string, unknown> | null {
  if (!inPageCurrency(totals) || line.server_item_id == null) return null
  const id = String(line.server_item_id)
  return totals?.items?.find((t) => String(t.item_id) === id) ?? null
}

/**
 * What the line charges: the server's row total once the cart is priced (for the shipping country)
 * in the page's currency, else the unit price as charged in it × qty. A price never changes
 * silently: when the server's differs from the one the shopper saw (the shipping country's tax
 * replaced their browsing country's), the price seen is shown struck through before it.
 */
function lineCharge(line: CartLine, unit: number, server: Record<string, unknown> | null) {
  const row = server?.row_total_incl_tax
  const seen = formatPageLine(unit, line.qty)
  if (typeof row !== 'number' || server?.qty !== line.qty) return seen
  const now = formatPageAmount(row)
  return now === seen ? (
    now
  ) : (
    <>
      <s data-testid="line-was">{seen}</s> {now}
    </>
  )
}

/** One cart line. */
function CartLineRow({
  line,
  compact,
  readOnly,
  server,
}: {
  line: CartLine
  compact?: boolean
  readOnly?: boolean
  server: Record<string, unknown> | null
}) {
  const img = cartThumbnail(lineImage(line))
  const href = lineHref(line)
  const options = lineOptions(line)
  const madeToOrder = lineMadeToOrder(line)
  const unit = lineUnitPrice(line)
  return (
    <li
      className={`cart-line${compact ? ' cart-line--compact' : ''}`}
      data-testid="cart-line"
      data-sku={line.sku}
    >
      <div className="cart-line__image">
        <img src={img} alt="" width={150} height={150} loading="lazy" />
      </div>
      <div className="cart-line__body">
        <p className="cart-line__name">{href ? <a href={href}>{line.name}</a> : line.name}</p>
        {options.length ? (
          <ul className="cart-line__options">
            {options.map((o, i) => (
              // Labels repeat (a grouped product's pieces): the position is part of the key.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is static for one render
              <li key={`${i}:${o.label}`}>
                {o.label}: <span>{o.value}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {madeToOrder ? (
          <p className="cart-line__info" data-testid="line-made-to-order">
            {madeToOrder}
          </p>
        ) : null}
        {Array.isArray(line.errors) ||
        (line.errors && typeof line.errors === 'object' && Object.keys(line.errors).length) ? (
          <p className="cart-line__error">{Object.values(line.errors as Record<string, string>).join(' ')}</p>
        ) : null}
        {typeof line.info === 'object' && line.info && Object.keys(line.info).length ? (
          <p className="cart-line__info">{Object.values(line.info as Record<string, string>).join(' ')}</p>
        ) : null}
        {readOnly ? (
          <p className="cart-line__qty" data-testid="line-qty-read">
            {MSG_QTY} {line.qty}
          </p>
        ) : (
          <div className="cart-line__actions">
            <QtyStepper line={line} />
            <RemoveButton line={line} />
          </div>
        )}
      </div>
      <p className="cart-line__price" data-testid="line-total">
        {lineCharge(line, unit, server)}
      </p>
    </li>
  )
}

/** Before a read-only line's quantity. */
const MSG_QTY = 'Qty:'

/** The list of lines; read-only (the checkout's summary) shows each quantity instead of the controls. */
export function CartLines({
  lines,
  compact,
  readOnly,
}: {
  lines: readonly CartLine[]
  compact?: boolean
  readOnly?: boolean
}) {
  const totals = useSignalValue(cartTotals)
  return (
    <ul className={readOnly ? 'cart-lines cart-lines--summary' : 'cart-lines'} aria-label="Products in cart">
      {lines.map((l) => (
        <CartLineRow
          key={l.sku}
          line={l}
          compact={compact}
          readOnly={readOnly}
          server={serverLineTotals(totals, l)}
        />
      ))}
    </ul>
  )
}
