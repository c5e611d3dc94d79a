/**
 * /my-account/* island: dashboard, personal details (+ change password), address book, newsletter,
 * store credit, orders and a single order. The access rule runs here, in the browser, once the
 * local session has started ("The check is skipped on the server side").
 */
import { useEffect, useState } from 'react'
import * as z from 'zod/mini'
import { AddressFields, type AddressFormValue } from '../../../shared/components/checkout/address-fields'
import { CheckboxField, TextField } from '../../../shared/components/checkout/form-field'
import { MSG } from '../../../shared/i18n/messages'
import { setAnalyticsIdentity } from '../../engines/analytics'
import { getRuntime } from '../../engines/runtime/runtime'
import { useSignalValue } from '../../state/use-signal'
import {
  type Customer,
  type CustomerAddress,
  changePassword,
  currentUser,
  formatPrice,
  guardAccountRoute,
  logout,
  sessionStarted,
  startSession,
  updateProfile,
  userGet,
  userSend,
} from '../checkout/adapters'
import {
  COUNTRIES,
  isEmail,
  isStrongPassword,
  MSG_INVALID_EMAIL,
  MSG_PASSWORD_SHORT,
  validateAddress,
} from '../checkout/checkout-model'
import { defineIsland } from '../define'
import {
  addressToForm,
  formatServerDate,
  formToAddress,
  type HistoryOrder,
  isEmailChange,
  type NewsletterStatus,
  newsletterStatus,
  orderKey,
} from './account-model'

export const ACCOUNT_SECTIONS = [
  'dashboard',
  'personal-details',
  'address-book',
  'newsletter',
  'credit-details',
  'orders',
  'order',
] as const
export type AccountSection = (typeof ACCOUNT_SECTIONS)[number]

const AccountPropsSchema = z.object({ section: z.enum(ACCOUNT_SECTIONS), orderId: z.optional(z.string()) })
type AccountProps = z.infer<typeof AccountPropsSchema>

const NAV: [string, string][] = [
  ['/my-account', 'My account'],
  ['/my-account/personal-details', 'My profile'],
  ['/my-account/address-book', 'My shipping details'],
  ['/my-account/newsletter', 'My newsletter'],
  ['/my-account/credit-details', 'My store credit'],
  ['/my-account/orders', 'My orders'],
]

/** Changes the e-mail address with the current password; null on success, else the message. */
async function changeEmail(customer: Partial<Customer>, currentPassword: string): Promise<string | null> {
  const r = await getRuntime().session.changeEmail(customer as Record<string, unknown>, currentPassword)
  return r.ok ? null : r.message
}

function PersonalDetails({ user }: { user: Customer }) {
  const [firstname, setFirstname] = useState(user.firstname)
  const [lastname, setLastname] = useState(user.lastname)
  const [email, setEmail] = useState(user.email)
  const [emailPassword, setEmailPassword] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const [pw, setPw] = useState({ current: '', next: '', confirm: '' })
  const [pwErrors, setPwErrors] = useState<Record<string, string>>({})
  const [pwError, setPwError] = useState<string | null>(null)

  return (
    <>
      <form
        className="account-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault()
          const errs: Record<string, string> = {}
          if (!firstname.trim()) errs.firstname = MSG.fieldRequired
          if (!lastname.trim()) errs.lastname = MSG.fieldRequired
          if (!email.trim()) errs.email = MSG.fieldRequired
          else if (!isEmail(email)) errs.email = MSG_INVALID_EMAIL
          const changingEmail = isEmailChange(user.email, email)
          if (changingEmail && !emailPassword) errs.emailPassword = MSG.fieldRequired
          setErrors(errs)
          if (Object.keys(errs).length) return
          setBusy(true)
          const customer = {
            ...user,
            firstname: firstname.trim(),
            lastname: lastname.trim(),
            email: email.trim(),
          }
          // A new e-mail address needs the current password; it is sent at once, never queued.
          const err = changingEmail
            ? await changeEmail(customer, emailPassword).finally(() => setBusy(false))
            : await updateProfile(customer).finally(() => setBusy(false))
          setFormError(err)
          if (!err) setEmailPassword('')
        }}
      >
        <h2>Personal details</h2>
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <div className="field-row">
          <TextField
            id="profile-firstname"
            label="First name"
            value={firstname}
            onChange={setFirstname}
            error={errors.firstname}
            autoComplete="given-name"
            required
          />
          <TextField
            id="profile-lastname"
            label="Last name"
            value={lastname}
            onChange={setLastname}
            error={errors.lastname}
            autoComplete="family-name"
            required
          />
        </div>
        <TextField
          id="profile-email"
          label="Email address"
          type="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
          autoComplete="email"
          required
        />
        {isEmailChange(user.email, email) ? (
          <TextField
            id="profile-email-password"
            label="Current password (needed to change your e-mail address)"
            type="password"
            value={emailPassword}
            onChange={setEmailPassword}
            error={errors.emailPassword}
            autoComplete="current-password"
            required
          />
        ) : null}
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Update my profile
        </button>
      </form>

      <form
        className="account-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault()
          const errs: Record<string, string> = {}
          if (!pw.current) errs.current = MSG.fieldRequired
          if (!pw.next) errs.next = MSG.fieldRequired
          else if (!isStrongPassword(pw.next)) errs.next = MSG_PASSWORD_SHORT
          if (pw.confirm !== pw.next) errs.confirm = 'Passwords must be identical.'
          setPwErrors(errs)
          if (Object.keys(errs).length) return
          const err = await changePassword(pw.current, pw.next)
          setPwError(err)
          if (!err) setPw({ current: '', next: '', confirm: '' })
        }}
      >
        <h2>Change password</h2>
        {pwError ? (
          <p className="form-error" role="alert">
            {pwError}
          </p>
        ) : null}
        <TextField
          id="password-current"
          label="Current password"
          type="password"
          value={pw.current}
          onChange={(v) => setPw({ ...pw, current: v })}
          error={pwErrors.current}
          autoComplete="current-password"
          required
        />
        <TextField
          id="password-new"
          label="New password"
          type="password"
          value={pw.next}
          onChange={(v) => setPw({ ...pw, next: v })}
          error={pwErrors.next}
          autoComplete="new-password"
          required
        />
        <TextField
          id="password-confirm"
          label="Repeat new password"
          type="password"
          value={pw.confirm}
          onChange={(v) => setPw({ ...pw, confirm: v })}
          error={pwErrors.confirm}
          autoComplete="new-password"
          required
        />
        <button type="submit" className="btn btn--secondary">
          Change password
        </button>
      </form>
    </>
  )
}

function AddressBook({ user }: { user: Customer }) {
  const addresses = user.addresses ?? []
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const [form, setForm] = useState<AddressFormValue & { isDefault: boolean }>(() => ({
    ...addressToForm(null),
    isDefault: false,
  }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState<string | null>(null)

  const startEdit = (i: number | 'new') => {
    const a = i === 'new' ? null : (addresses[i] ?? null)
    setForm({
      ...addressToForm(a),
      isDefault: i === 'new' ? addresses.length === 0 : Boolean(a?.default_shipping),
    })
    setErrors({})
    setEditing(i)
  }

  const save = async () => {
    const errs = validateAddress({ ...form, region_id: null })
    setErrors(errs)
    if (Object.keys(errs).length) return
    const base = editing === 'new' || editing === null ? undefined : addresses[editing]
    const next: CustomerAddress = formToAddress(form, base, form.isDefault)
    let list = editing === 'new' ? [...addresses, next] : addresses.map((a, i) => (i === editing ? next : a))
    if (form.isDefault) {
      list = list.map((a) => (a === next ? a : { ...a, default_shipping: false, default_billing: false }))
    }
    const err = await updateProfile({ ...user, addresses: list })
    setFormError(err)
    if (!err) setEditing(null)
  }

  return (
    <section>
      <h2>Address book</h2>
      {addresses.length === 0 ? <p>You have no saved addresses yet.</p> : null}
      <ul className="address-list">
        {addresses.map((a, i) => (
          <li key={a.id ?? `new-${i}`} className="address-card" data-testid="address-card">
            <address>
              {a.firstname} {a.lastname}
              <br />
              {a.street.filter(Boolean).join(', ')}
              <br />
              {[a.city, a.region?.region, a.postcode].filter(Boolean).join(', ')}
              <br />
              {COUNTRIES.find((c) => c.code === a.country_id)?.name ?? a.country_id}
              {a.telephone ? (
                <>
                  <br />
                  {a.telephone}
                </>
              ) : null}
            </address>
            {a.default_shipping ? <p className="badge">Default address</p> : null}
            <button type="button" className="btn btn--link" onClick={() => startEdit(i)}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn--link"
              onClick={async () =>
                setFormError(await updateProfile({ ...user, addresses: addresses.filter((_, j) => j !== i) }))
              }
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      {editing === null ? (
        <button type="button" className="btn btn--secondary" onClick={() => startEdit('new')}>
          Add a new address
        </button>
      ) : (
        <form
          className="account-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <h3>{editing === 'new' ? 'New address' : 'Edit address'}</h3>
          <AddressFields
            idPrefix="address"
            value={form}
            countries={COUNTRIES}
            errors={errors}
            onChange={(f, v) => setForm({ ...form, [f]: v })}
            withCompany
          />
          <CheckboxField
            id="address-default"
            label="Use as my default address"
            checked={form.isDefault}
            onChange={(v) => setForm({ ...form, isDefault: v })}
          />
          <button type="submit" className="btn btn--primary">
            Save address
          </button>
          <button type="button" className="btn btn--link" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
    </section>
  )
}

const NEWSLETTER_PATH = 'ext/mailchimp-subscribe/subscribe'

function Newsletter({ user }: { user: Customer }) {
  const [status, setStatus] = useState<NewsletterStatus | null>(null)
  const [wanted, setWanted] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  useEffect(() => {
    void userGet<unknown>(NEWSLETTER_PATH, { email: user.email })
      .then((r) => {
        const now = r.code === 200 ? newsletterStatus(r.result) : 'unsubscribed'
        setStatus(now)
        setWanted(now !== 'unsubscribed')
      })
      .catch(() => setStatus('unsubscribed'))
  }, [user.email])
  if (status === null) return <p role="status">Loading…</p>
  return (
    <form
      className="account-form"
      onSubmit={async (e) => {
        e.preventDefault()
        // "Subscribe only if not subscribed; unsubscribe only if subscribed." A sign-up waits for
        // the confirmation link mailed to the address (sending again mails a new link).
        if (wanted && status !== 'subscribed') {
          const r = await userSend(NEWSLETTER_PATH, 'POST', { email: user.email })
          if (r.code !== 200) return setMessage(String(r.result))
          const now = newsletterStatus(r.result)
          setStatus(now)
          setMessage(
            now === 'subscribed'
              ? 'You have been successfully subscribed to our newsletter!'
              : `Almost done: please confirm with the link we have sent to ${user.email}.`,
          )
        } else if (!wanted && status !== 'unsubscribed') {
          const r = await userSend(NEWSLETTER_PATH, 'DELETE', { email: user.email })
          if (r.code === 200) setStatus('unsubscribed')
          setMessage(
            r.code === 200
              ? 'You have been successfully unsubscribed from our newsletter!'
              : String(r.result),
          )
        }
      }}
    >
      <h2>Newsletter</h2>
      <CheckboxField
        id="newsletter-general"
        label="General subscription"
        checked={wanted}
        onChange={setWanted}
      />
      {status === 'pending' ? (
        <p data-testid="newsletter-pending">
          Waiting for your confirmation: open the link we sent to {user.email}.
        </p>
      ) : null}
      <button
        type="submit"
        className="btn btn--primary"
        disabled={wanted ? status === 'subscribed' : status === 'unsubscribed'}
      >
        {wanted && status === 'pending' ? 'Send the confirmation link again' : 'Update my preferences'}
      </button>
      {message ? <p role="status">{message}</p> : null}
    </form>
  )
}

interface CreditItem {
  id?: number | string
  amount: number
  description?: string
  created_at?: string
  balance?: number
}

function StoreCredit() {
  const [data, setData] = useState<{ items: CreditItem[]; total_balance: number } | null | 'error'>(null)
  useEffect(() => {
    void userGet<{ items?: CreditItem[]; total_balance?: number }>('giftcard/store-credit-transaction')
      .then((r) =>
        setData(
          r.code === 200 && r.result
            ? { items: r.result.items ?? [], total_balance: r.result.total_balance ?? 0 }
            : 'error',
        ),
      )
      .catch(() => setData('error'))
  }, [])
  if (data === null) return <p role="status">Loading…</p>
  if (data === 'error') return <p>Store credit could not be loaded. Please try again later.</p>
  return (
    <section>
      <h2>Store credit</h2>
      <p className="credit-balance">
        Balance: <strong data-testid="credit-balance">{formatPrice(data.total_balance)}</strong>
      </p>
      {data.items.length === 0 ? (
        <p>No store credit transactions yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Description</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((t, i) => (
              <tr key={t.id ?? i}>
                <td>{formatServerDate(t.created_at, 'date')}</td>
                <td>{t.description ?? ''}</td>
                <td>{formatPrice(t.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function useOrderHistory() {
  const [orders, setOrders] = useState<HistoryOrder[] | null | 'error'>(null)
  useEffect(() => {
    void userGet<{ items?: HistoryOrder[] }>('user/order-history', { pageSize: 20, currentPage: 1 })
      .then((r) => setOrders(r.code === 200 ? (r.result?.items ?? []) : 'error'))
      .catch(() => setOrders('error'))
  }, [])
  return orders
}

function Orders() {
  const orders = useOrderHistory()
  if (orders === null) return <p role="status">Loading…</p>
  if (orders === 'error') return <p>Your orders could not be loaded. Please try again later.</p>
  return (
    <section>
      <h2>My orders</h2>
      {orders.length === 0 ? (
        <p>You have no orders yet.</p>
      ) : (
        <table className="table" data-testid="order-history">
          <thead>
            <tr>
              <th scope="col">Order #</th>
              <th scope="col">Date</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={orderKey(o)} data-testid="order-row">
                <td>{o.increment_id}</td>
                <td>{formatServerDate(o.created_at, 'date')}</td>
                <td>{formatPrice(o.grand_total ?? 0)}</td>
                <td>{o.status}</td>
                <td>
                  <a href={`/my-account/orders/${encodeURIComponent(orderKey(o))}`}>View order</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function SingleOrder({ orderId }: { orderId: string }) {
  const orders = useOrderHistory()
  if (orders === null) return <p role="status">Loading…</p>
  const order =
    orders === 'error' ? undefined : orders.find((o) => orderKey(o) === orderId || o.increment_id === orderId)
  if (!order) return <p>This order could not be found.</p>
  return (
    <section data-testid="single-order">
      <h2>Order #{order.increment_id}</h2>
      <p>
        Status: <strong>{order.status}</strong>
        {order.status === 'pending_payment' ? ' — payment is pending; no payment has been taken yet.' : null}
      </p>
      <p>Date: {formatServerDate(order.created_at, 'time')}</p>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">SKU</th>
            <th scope="col">Qty</th>
            <th scope="col">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {(order.items ?? []).map((i) => (
            <tr key={i.sku}>
              <td>{i.name}</td>
              <td>{i.sku}</td>
              <td>{i.qty_ordered}</td>
              <td>{formatPrice(i.row_total_incl_tax ?? i.row_total ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Grand total: {formatPrice(order.grand_total ?? 0)}</p>
      {order.payment?.method ? <p>Payment method: {order.payment.method}</p> : null}
    </section>
  )
}

function Dashboard({ user }: { user: Customer }) {
  return (
    <section>
      <h2>
        Hello, {user.firstname} {user.lastname}
      </h2>
      <p>{user.email}</p>
      <p>
        From your account dashboard you can see your orders, update your profile, addresses, newsletter and
        store credit.
      </p>
    </section>
  )
}

function Account({ section, orderId }: AccountProps) {
  const user = useSignalValue(currentUser) as Customer | null
  const started = useSignalValue(sessionStarted)
  const [allowed, setAllowed] = useState(false)

  useEffect(() => startSession(), [])

  useEffect(() => {
    if (!started) return
    if (guardAccountRoute(window.location.pathname + window.location.search)) setAllowed(true)
  }, [started])

  useEffect(() => setAnalyticsIdentity(user?.email), [user])

  if (allowed && started && !user) {
    return (
      <div className="account account--logged-out" data-testid="logged-out">
        <p>{MSG.loggedOut}</p>
        <a href="/" className="btn">
          Back to the shop
        </a>
      </div>
    )
  }
  if (!allowed || !user) return <p role="status">Loading your account…</p>

  return (
    <div className="account" data-testid="account">
      <nav className="account__nav" aria-label="My account">
        <ul>
          {NAV.map(([href, label]) => (
            <li key={href}>
              <a href={href} aria-current={window.location.pathname === href ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="btn btn--link"
              data-testid="logout"
              onClick={() => void logout()}
            >
              Logout
            </button>
          </li>
        </ul>
      </nav>
      <div className="account__content">
        {section === 'dashboard' ? <Dashboard user={user} /> : null}
        {section === 'personal-details' ? <PersonalDetails user={user} /> : null}
        {section === 'address-book' ? <AddressBook user={user} /> : null}
        {section === 'newsletter' ? <Newsletter user={user} /> : null}
        {section === 'credit-details' ? <StoreCredit /> : null}
        {section === 'orders' ? <Orders /> : null}
        {section === 'order' && orderId ? <SingleOrder orderId={orderId} /> : null}
      </div>
    </div>
  )
}

export const AccountIsland = defineIsland('account', Account, AccountPropsSchema)
