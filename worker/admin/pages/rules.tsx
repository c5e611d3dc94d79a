/**
 * Cash-on-delivery rules: the PIN-code and phone blocklists, the products made to order, and the
 * discount offered for paying a COD order online by payment link.
 */
import type { Context } from 'hono'
import type { PrepaidDiscountSetting } from '../../api/payment/prepaid-discount'
import type { AdminEnv } from '../env'
import type { BlockRow } from '../rules'
import { Confirm, Field, MoneyInput, PostForm, Table, when } from './components'
import { renderAdmin } from './frame'

const BACK = '/admin/rules'

function Blocklist(props: { kind: 'pin' | 'phone'; rows: BlockRow[] }) {
  const what = props.kind === 'pin' ? 'PIN code' : 'Phone number'
  return (
    <section className="card" aria-labelledby={`blocked-${props.kind}`}>
      <h2 id={`blocked-${props.kind}`}>
        {props.kind === 'pin' ? 'PIN codes' : 'Phone numbers'} without cash on delivery
      </h2>
      {props.rows.length ? (
        <Table
          rows={props.rows}
          rowKey={(r) => r.value}
          columns={[
            {
              header: what,
              cell: (r) =>
                props.kind === 'phone' ? `+91 ${r.value.slice(0, 5)} ${r.value.slice(5)}` : r.value,
            },
            { header: 'Why', cell: (r) => r.note },
            { header: 'Since', cell: (r) => when(r.created_at) },
            {
              header: '',
              cell: (r) => (
                <Confirm
                  needs="orders"
                  summary="Remove…"
                  summaryLabel={`Remove ${what} ${r.value}`}
                  explanation={`${what} ${r.value} gets cash on delivery again.`}
                  action={`/admin/api/rules/${props.kind}/delete`}
                  formKey={r.value}
                  back={BACK}
                  label={`Allow ${r.value}`}
                >
                  <input type="hidden" name="value" value={r.value} />
                </Confirm>
              ),
            },
          ]}
        />
      ) : (
        <p>None.</p>
      )}
      <PostForm
        needs="orders"
        action={`/admin/api/rules/${props.kind}`}
        back={BACK}
        label={`Block the ${props.kind === 'pin' ? 'PIN code' : 'phone number'}`}
      >
        <Field
          label={
            props.kind === 'pin'
              ? 'PIN code (six digits, like 110001)'
              : 'Mobile number (like +91 98765 43210)'
          }
          name="value"
          inputMode={props.kind === 'pin' ? 'numeric' : 'tel'}
          required
          maxLength={30}
        />
        <Field label="Why (optional, e.g. parcels refused at the door)" name="note" maxLength={200} />
      </PostForm>
    </section>
  )
}

export function rulesPage(
  c: Context<AdminEnv>,
  rules: {
    pins: BlockRow[]
    phones: BlockRow[]
    madeToOrder: { sku: string; name: string | null }[]
    prepaid: PrepaidDiscountSetting | null
  },
) {
  return renderAdmin(
    c,
    'Cash-on-delivery rules',
    <>
      <p>
        Checked before the shopper's review and again when the order is placed: a blocked PIN code or phone
        number, or a product made to order, gets no cash on delivery. Rules in the shop's configuration
        (SHIPPING_RULES) apply as well.
      </p>
      <Blocklist kind="pin" rows={rules.pins} />
      <Blocklist kind="phone" rows={rules.phones} />
      <section className="card" aria-labelledby="made-to-order">
        <h2 id="made-to-order">Products made to order</h2>
        <p>Cut after the order, so never sent cash on delivery. A product's SKU covers all its sizes.</p>
        {rules.madeToOrder.length ? (
          <Table
            rows={rules.madeToOrder}
            rowKey={(r) => r.sku}
            columns={[
              { header: 'SKU', cell: (r) => r.sku },
              { header: 'Product', cell: (r) => r.name ?? '(no longer in the catalogue)' },
              {
                header: '',
                cell: (r) => (
                  <PostForm
                    needs="catalogue"
                    action="/admin/api/rules/made-to-order/delete"
                    formKey={r.sku}
                    back={BACK}
                    label="Remove"
                    buttonLabel={`Remove ${r.sku} from made to order`}
                    danger
                  >
                    <input type="hidden" name="sku" value={r.sku} />
                  </PostForm>
                ),
              },
            ]}
          />
        ) : (
          <p>None.</p>
        )}
        <PostForm
          needs="catalogue"
          action="/admin/api/rules/made-to-order"
          back={BACK}
          label="Mark made to order"
        >
          <Field label="Product SKU" name="sku" required maxLength={64} />
        </PostForm>
      </section>
      <PrepaidDiscount setting={rules.prepaid} />
    </>,
  )
}

/** Whole rupees with Indian digit grouping, from paise. */
const rupees = (minor: number) => `₹${(minor / 100).toLocaleString('en-IN')}`

/** The form's choices, each with the amounts it takes: a percent, or rupees (shown as ₹1,500.00). */
const CHOICES: {
  kind: PrepaidDiscountSetting['kind']
  label: string
  amounts: {
    label: string
    name: string
    maxLength: number
    /** The stored figure: a percent, or paise when `money`. */
    value: (s: PrepaidDiscountSetting) => number
    money?: true
  }[]
}[] = [
  { kind: 'off', label: 'No discount', amounts: [] },
  {
    kind: 'percent',
    label: 'A percentage of the goods',
    amounts: [
      { label: 'Percentage (1 to 50)', name: 'percent', maxLength: 10, value: (s) => s.percent },
      { label: 'At most, in rupees', name: 'cap', maxLength: 20, value: (s) => s.cap_minor, money: true },
    ],
  },
  {
    kind: 'fixed',
    label: 'A fixed amount',
    amounts: [
      { label: 'Rupees off', name: 'fixed', maxLength: 20, value: (s) => s.fixed_minor, money: true },
    ],
  },
]

function PrepaidDiscount(props: { setting: PrepaidDiscountSetting | null }) {
  const s = props.setting ?? { kind: 'off', percent: 0, cap_minor: 0, fixed_minor: 0 }
  const now =
    s.kind === 'percent'
      ? `${s.percent} % of the goods, at most ${rupees(s.cap_minor)}`
      : s.kind === 'fixed'
        ? `${rupees(s.fixed_minor)} off`
        : 'No discount'
  return (
    <section className="card" aria-labelledby="prepaid-discount">
      <h2 id="prepaid-discount">Discount for paying online</h2>
      <p>
        Offered to a cash-on-delivery order on its payment link: the link asks the order total less it, and
        paying it records it as the order's discount. Never more than the goods, and the order still costs at
        least ₹1. A link keeps the discount it was made with. Now: <strong>{now}</strong>.
      </p>
      <PostForm
        needs="orders"
        action="/admin/api/rules/prepaid-discount"
        back={BACK}
        label="Save the discount"
      >
        {CHOICES.flatMap((choice) => [
          <Field
            key={choice.kind}
            label={choice.label}
            type="radio"
            name="kind"
            value={choice.kind}
            defaultChecked={s.kind === choice.kind}
          />,
          ...choice.amounts.map((a) =>
            a.money ? (
              <MoneyInput
                key={a.name}
                label={a.label}
                name={a.name}
                maxLength={a.maxLength}
                minorValue={a.value(s) || null}
                defaultValue=""
              />
            ) : (
              <Field
                key={a.name}
                label={a.label}
                name={a.name}
                inputMode="numeric"
                maxLength={a.maxLength}
                defaultValue={a.value(s) ? String(a.value(s)) : ''}
              />
            ),
          ),
        ])}
      </PostForm>
    </section>
  )
}
