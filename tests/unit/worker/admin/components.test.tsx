// The back office's building blocks as an operator's browser receives them (no script runs in the
// back office): what a field says when its value was refused, what a table shows, and that an
// irreversible change needs a second click on a button that names it.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  Choice,
  Confirm,
  Csrf,
  Field,
  MoneyInput,
  OperatorRole,
  PostForm,
  Reply,
  Table,
} from '../../../../worker/admin/pages/components'

const html = (node: React.ReactNode) =>
  renderToStaticMarkup(<Csrf.Provider value="tok&en">{node}</Csrf.Provider>)

describe('fields', () => {
  it('ties a refusal to its input: marked invalid, the reason announced inside the label', () => {
    expect(html(<Field label="Code" name="code" error="Code is taken" />)).toBe(
      '<label>Code <input aria-invalid="true" name="code"/><strong role="alert">Code is taken</strong></label>',
    )
    expect(html(<Field label="Code" name="code" />)).toBe('<label>Code <input name="code"/></label>')
  })

  it('asks for money as rupees, showing a stored amount in paise as operators read it (Indian grouping)', () => {
    expect(html(<MoneyInput label="Price" name="price" />)).toContain('inputMode="decimal"')
    expect(html(<MoneyInput label="Price" name="price" minorValue={8719900} />)).toContain(
      'value="₹87,199.00"',
    )
    expect(html(<MoneyInput label="Price" name="price" minorValue={129950} />)).toContain('value="₹1,299.50"')
    expect(html(<MoneyInput label="Price" name="price" minorValue={10000000} />)).toContain(
      'value="₹1,00,000.00"',
    )
  })

  it('gives a refused post back to its own form: what was typed, the reason beside the field', () => {
    const reply = {
      action: '/admin/api/orders/1/refund',
      form: '',
      values: { amount: '5,000x', reason: 'torn' },
      message: 'Invalid refund: amount: must be an amount',
      fields: { amount: 'must be an amount' },
    }
    const page = (action: string) =>
      html(
        <Reply.Provider value={reply}>
          <PostForm needs="orders" action={action} back="/admin/orders/1" label="Refund">
            <MoneyInput label="Amount" name="amount" />
            <Field label="Reason" name="reason" />
            <Field label="Password" name="password" type="password" />
          </PostForm>
        </Reply.Provider>,
      )
    const mine = page('/admin/api/orders/1/refund')
    expect(mine).toContain('<p class="refused" role="alert">Invalid refund: amount: must be an amount</p>')
    expect(mine).toContain(
      'aria-invalid="true" name="amount" value="5,000x"/><strong role="alert">must be an amount</strong>',
    )
    expect(mine).toContain('name="reason" value="torn"/>')
    const other = page('/admin/api/orders/2/refund')
    expect(other).not.toContain('5,000x')
    expect(other).not.toContain('role="alert"')
  })

  it('offers a choice with the current value selected, sending a value other than its text when given', () => {
    const out = html(
      <Choice
        label="Status"
        name="status"
        defaultValue="2"
        options={[
          ['1', 'on'],
          ['2', 'off'],
        ]}
      />,
    )
    expect(out).toBe(
      '<label>Status <select name="status"><option value="1">on</option><option value="2" selected="">off</option></select></label>',
    )
  })
})

describe('forms', () => {
  it('are not shown to a role that may not use them', () => {
    const form = (role: 'owner' | 'staff' | 'viewer') =>
      html(
        <OperatorRole.Provider value={role}>
          <PostForm needs="money" action="/admin/api/coupons" back="/admin/coupons" label="Create coupon" />
          <Confirm
            needs="orders"
            summary="Cancel…"
            explanation="x"
            action="/admin/api/orders/1/transition"
            back="/admin/orders/1"
            label="Cancel order"
          />
        </OperatorRole.Provider>,
      )
    expect(form('owner')).toContain('Create coupon')
    expect(form('owner')).toContain('Cancel order')
    expect(form('staff')).not.toContain('Create coupon')
    expect(form('staff')).toContain('Cancel order')
    expect(form('viewer')).toBe('')
  })

  it('post the CSRF token (escaped) and the page to come back to', () => {
    const out = html(<PostForm needs="orders" action="/admin/api/x" back="/admin/x" label="Go" />)
    expect(out).toContain('<input type="hidden" name="_csrf" value="tok&amp;en"/>')
    expect(out).toContain('<input type="hidden" name="return_to" value="/admin/x"/>')
    expect(out).toContain('<button type="submit">Go</button>')
  })

  it('keep an irreversible change behind a disclosure whose button says what it does', () => {
    const out = html(
      <Confirm
        needs="reviews"
        summary="Delete…"
        explanation="Gone for good."
        action="/admin/api/x/delete"
        back="/admin/x"
        label="Delete for good"
        buttonLabel="Delete x for good"
      />,
    )
    expect(out).toMatch(/^<details><summary>Delete…<\/summary><p>Gone for good.<\/p><form /)
    expect(out).toContain(
      '<button type="submit" class="danger" aria-label="Delete x for good">Delete for good</button>',
    )
  })
})

describe('tables', () => {
  it('show one heading per column and one row per item, text escaped', () => {
    const out = html(
      <Table
        rows={[{ sku: 'A<1>', qty: 2 }]}
        rowKey={(r) => r.sku}
        columns={[
          { header: 'SKU', cell: (r) => r.sku },
          { header: <span className="skip">Units</span>, cell: (r) => r.qty },
        ]}
      />,
    )
    expect(out).toBe(
      '<div class="scroll"><table><thead><tr><th>SKU</th><th><span class="skip">Units</span></th></tr></thead>' +
        '<tbody><tr><td>A&lt;1&gt;</td><td>2</td></tr></tbody></table></div>',
    )
  })
})
