/**
 * The account's newsletter preference: subscribe only when not subscribed, unsubscribe only when
 * subscribed; a sign-up waits for the confirmation link mailed to the address.
 */

import { CheckboxField } from '@shared/components/checkout/form-field'
import { useEffect, useState } from 'react'
import { userGet, userSend } from './account-api'
import { type Customer, type NewsletterStatus, newsletterStatus } from './account-model'

const NEWSLETTER_PATH = 'ext/mailchimp-subscribe/subscribe'

export function Newsletter({ user }: { user: Customer }) {
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
        // Subscribe only when not subscribed, unsubscribe only when subscribed. A sign-up waits for
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
