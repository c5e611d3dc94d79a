/**
 * The catalogue: a product found by SKU or name, its price, special price, status and stock (the
 * quick forms folded under each product); links to create and edit products.
 */
import { baseCurrency } from '@shared/config/store'
import type { Context } from 'hono'
import { useContext } from 'react'
import type { AdminEnv } from '../env'
import { can } from '../roles'
import {
  Choice,
  Field,
  MoneyInput,
  money,
  OperatorRole,
  PostForm,
  paise,
  Reply,
  Table,
  Toggle,
} from './components'
import { renderAdmin } from './frame'

interface ProductHit {
  id: number
  sku: string
  name: string
  status: number
  visibility: number
  price: number
  final_price: number | null
  special_price: number | null
  hsn_code: string | number | null
  stock: { sku: string; qty: number; is_in_stock: number }[]
}

export function productsPage(c: Context<AdminEnv>, q: string, hits: ProductHit[]) {
  const back = `/admin/products?q=${encodeURIComponent(q)}`
  return renderAdmin(
    c,
    'Catalogue',
    <>
      <p>
        New: <a href="/admin/products/new?type=simple">simple product</a> ·{' '}
        <a href="/admin/products/new?type=configurable">configurable product (colours × sizes)</a> ·{' '}
        <a href="/admin/products/bulk">
          bulk changes (a prices and stock file, publish, category, price by %)
        </a>
      </p>
      <search>
        <form className="inline" method="get">
          <Field label="SKU or name" name="q" defaultValue={q} required />
          <button type="submit">Search</button>
        </form>
      </search>
      {hits.map((p) => (
        <section key={p.id} className="card" aria-labelledby={`p-${p.id}`}>
          <h2 id={`p-${p.id}`}>
            {p.name} ({p.sku})
          </h2>
          <p>
            Price {money(paise(p.price), baseCurrency())} · charged now{' '}
            {money(paise(p.final_price ?? p.price), baseCurrency())} · status{' '}
            {p.status === 1 ? 'enabled' : 'disabled'} · visibility {p.visibility} ·{' '}
            <a href={`/admin/products/${p.id}/edit`}>Edit everything</a>
          </p>
          <QuickEdit product={p} back={back} />
        </section>
      ))}
    </>,
  )
}

/**
 * A product's quick forms (price, special price, status; the stock of each SKU), folded so a long
 * search stays a list of products: open when one of its forms was just refused, so the reason is
 * seen. A role that may not change the catalogue sees the stock as words instead.
 */
function QuickEdit({ product: p, back }: { product: ProductHit; back: string }) {
  const role = useContext(OperatorRole)
  const reply = useContext(Reply)
  const stockAction = (sku: string) => `/admin/api/stock/${encodeURIComponent(sku)}`
  if (role && !can(role, 'catalogue'))
    return (
      <p>
        {`Stock: ${p.stock.map((s) => `${s.sku} ${s.qty}${s.is_in_stock ? '' : ' (out of stock)'}`).join(' · ') || 'none'}`}
      </p>
    )
  const refused =
    reply !== null &&
    (reply.action === `/admin/api/products/${p.id}/form` ||
      p.stock.some((s) => reply.action === stockAction(s.sku)))
  return (
    <details open={refused || undefined}>
      <summary>
        Change price, status or stock ({p.stock.length} SKU{p.stock.length === 1 ? '' : 's'})
      </summary>
      <PostForm
        needs="catalogue"
        action={`/admin/api/products/${p.id}/form`}
        back={back}
        label="Save product"
      >
        <MoneyInput label="Price" name="price" minorValue={paise(p.price)} />
        <MoneyInput
          label="Special price"
          name="special_price"
          placeholder="none"
          minorValue={p.special_price == null ? undefined : paise(p.special_price)}
        />
        <label>
          <input type="checkbox" name="remove_special_price" /> Remove the special price
        </label>
        <Field
          label="HSN code"
          name="hsn_code"
          inputMode="numeric"
          placeholder="4, 6 or 8 digits"
          defaultValue={p.hsn_code == null ? undefined : String(p.hsn_code)}
        />
        <Field label="From" type="date" name="special_from_date" />
        <Field label="To" type="date" name="special_to_date" />
        <Choice
          label="Status"
          name="status"
          defaultValue={String(p.status)}
          options={[
            ['1', 'enabled'],
            ['2', 'disabled'],
          ]}
        />
        <Choice
          label="Visibility"
          name="visibility"
          defaultValue={String(p.visibility)}
          options={['1', '2', '3', '4'].map((v) => [v, v] as const)}
        />
      </PostForm>
      <Table
        rows={p.stock}
        rowKey={(s) => s.sku}
        columns={[
          { header: 'SKU', cell: (s) => s.sku },
          {
            header: 'Stock',
            cell: (s) => (
              <PostForm needs="catalogue" action={stockAction(s.sku)} back={back} label="Set stock">
                <Field label={<>Units of {s.sku}</>} name="qty" inputMode="numeric" defaultValue={s.qty} />
                <Toggle label="In stock" name="is_in_stock" defaultChecked={!!s.is_in_stock} />
              </PostForm>
            ),
          },
        ]}
      />
    </details>
  )
}
