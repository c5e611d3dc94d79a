/**
 * /my-account/* island: dashboard, personal details (+ change password), address book, newsletter,
 * store credit, orders and a single order. The access rule runs here, in the browser, once the
 * local session has started: the server never checks it (it cannot see the session).
 */

import { BackToShop } from '@shared/components/page-message'
import { MSG } from '@shared/i18n/messages'
import { Suspense, useEffect, useState } from 'react'
import * as z from 'zod/mini'
import { setAnalyticsIdentity } from '../../engines/analytics'
import { getRuntime, startClientRuntimeSoon } from '../../engines/runtime/runtime'
import { guardAccountRoute } from '../../engines/session/access-rule'
import { useSignalValue } from '../../state/use-signal'
import { currentUser, sessionStarted } from '../../state/user'
import { defineIsland } from '../define'
import { lazyPart } from '../lazy-part'
import type { Customer } from './account-model'
import { AddressBook } from './address-book'
import { Dashboard } from './dashboard'
import { MessagePreferences } from './messages'
import { Newsletter } from './newsletter'
import { PersonalDetails } from './personal-details'
import { StoreCredit } from './store-credit'

// The order screens (their pictures, statuses and pay-now button) load when one is opened, so the
// other account screens do not carry them.
const Orders = lazyPart(() => import('./orders').then((m) => m.Orders))
const SingleOrder = lazyPart(() => import('./orders').then((m) => m.SingleOrder))

const ACCOUNT_SECTIONS = [
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

function Account({ section, orderId }: AccountProps) {
  const user = useSignalValue(currentUser) as Customer | null
  const started = useSignalValue(sessionStarted)
  const [allowed, setAllowed] = useState(false)

  useEffect(() => {
    void startClientRuntimeSoon()
  }, [])

  // A visitor who is not logged in (once the session started) goes home; the path is remembered.
  useEffect(() => {
    if (!started) return
    if (guardAccountRoute(window.location.pathname + window.location.search)) setAllowed(true)
  }, [started])

  useEffect(() => setAnalyticsIdentity(user?.email), [user])

  if (allowed && started && !user) {
    return <BackToShop className="account account--logged-out" testId="logged-out" message={MSG.loggedOut} />
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
              onClick={() => void getRuntime().session.logout()}
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
        {section === 'newsletter' ? <MessagePreferences /> : null}
        {section === 'credit-details' ? <StoreCredit /> : null}
        <Suspense fallback={<p role="status">Loading…</p>}>
          {section === 'orders' ? <Orders /> : null}
          {section === 'order' && orderId ? <SingleOrder orderId={orderId} /> : null}
        </Suspense>
      </div>
    </div>
  )
}

export const AccountIsland = defineIsland('account', Account, AccountPropsSchema)
