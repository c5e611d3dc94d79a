/**
 * The account's home: who is signed in, the last few orders with their status and total, the
 * store credit balance with the way to redeem a gift card, the default delivery address and the
 * message choices, each with the link to the screen that changes it.
 */
import { addressLines, orderStatusName } from '@shared/components/order/order-text'
import { useEffect, useState } from 'react'
import { formatPageAmount, formatPagePrice } from '../page-price'
import { userGet } from './account-api'
import { type Customer, formatServerDate, orderKey } from './account-model'
import { useOrderHistory } from './order-history'

/** How many orders the home lists (My orders has them all). */
const RECENT_ORDERS = 3

/** One answer of the account's API, loaded once: undefined while loading, null when it failed. */
function useAccountValue<T>(path: string): T | null | undefined {
  const [value, setValue] = useState<T | null | undefined>(undefined)
  useEffect(() => {
    void userGet<T>(path)
      .then((r) => setValue(r.code === 200 ? r.result : null))
      .catch(() => setValue(null))
  }, [path])
  return value
}

function RecentOrders() {
  const orders = useOrderHistory(RECENT_ORDERS)
  return (
    <section className="account-home__card account-home__orders" aria-labelledby="home-orders">
      <h3 id="home-orders">Recent orders</h3>
      {orders === null ? <p role="status">Loading…</p> : null}
      {orders === 'error' ? <p>Your orders could not be loaded. Please try again later.</p> : null}
      {Array.isArray(orders) && orders.length === 0 ? (
        <p>
          You have no orders yet. <a href="/">Start shopping</a>
        </p>
      ) : null}
      {Array.isArray(orders) && orders.length > 0 ? (
        <ul className="account-home__list" data-testid="home-orders">
          {orders.map((o) => (
            <li key={orderKey(o)}>
              <a href={`/my-account/orders/${encodeURIComponent(orderKey(o))}`}>Order {o.increment_id}</a>
              <span>
                {`${formatServerDate(o.created_at, 'date')} · ${(o.items ?? []).length} item${(o.items ?? []).length === 1 ? '' : 's'} · ${formatPageAmount(o.grand_total ?? 0, o.order_currency_code)}`}
              </span>
              <strong>{orderStatusName(o.status)}</strong>
            </li>
          ))}
        </ul>
      ) : null}
      <a href="/my-account/orders">All orders</a>
    </section>
  )
}

function Credit() {
  const credit = useAccountValue<{ total_balance?: number }>('giftcard/store-credit-transaction')
  return (
    <section className="account-home__card" aria-labelledby="home-credit">
      <h3 id="home-credit">Store credit</h3>
      {credit === undefined ? <p role="status">Loading…</p> : null}
      {credit === null ? <p>Your store credit could not be loaded.</p> : null}
      {credit ? (
        <p className="credit-balance" data-testid="home-credit">
          {formatPagePrice(credit.total_balance ?? 0)}
        </p>
      ) : null}
      <a href="/my-account/credit-details">Redeem a gift card or see the history</a>
    </section>
  )
}

function DeliveryAddress({ user }: { user: Customer }) {
  const list = user.addresses ?? []
  const main = list.find((a) => a.default_shipping) ?? list[0]
  return (
    <section className="account-home__card" aria-labelledby="home-address">
      <h3 id="home-address">Delivery address</h3>
      {main ? (
        <address data-testid="home-address">
          {addressLines(main as unknown as Record<string, unknown>).map((l) => (
            <span key={l}>
              {l}
              <br />
            </span>
          ))}
        </address>
      ) : (
        <p>No address saved yet: the one you use at checkout can be kept here.</p>
      )}
      <a href="/my-account/address-book">
        {list.length > 1
          ? `All ${list.length} addresses`
          : main
            ? 'Change or add addresses'
            : 'Add an address'}
      </a>
    </section>
  )
}

function Messages() {
  const prefs = useAccountValue<{ whatsappPhones?: string[]; cartReminders?: boolean }>(
    'messages/preferences',
  )
  const phones = prefs?.whatsappPhones ?? []
  return (
    <section className="account-home__card" aria-labelledby="home-messages">
      <h3 id="home-messages">Messages</h3>
      {prefs === undefined ? (
        <p role="status">Loading…</p>
      ) : (
        <p data-testid="home-messages">
          {phones.length
            ? `Order updates on WhatsApp to ${phones.join(', ')}.`
            : 'Order updates by e-mail only (no WhatsApp).'}{' '}
          {prefs?.cartReminders ? 'Reminders of a bag left: on.' : 'Reminders of a bag left: off.'}
        </p>
      )}
      <a href="/my-account/newsletter">Change what we send you</a>
    </section>
  )
}

export function Dashboard({ user }: { user: Customer }) {
  return (
    <section className="account-home" data-testid="account-home">
      <h2>Hello, {user.firstname}</h2>
      <p className="account-home__who">
        Signed in as {user.email}. <a href="/my-account/personal-details">Edit your profile</a>
      </p>
      <div className="account-home__grid">
        <RecentOrders />
        <Credit />
        <DeliveryAddress user={user} />
        <Messages />
      </div>
    </section>
  )
}
