/**
 * Newsletter sign-up (catalogue §1 "sign up for a newsletter"): POST
 * /api/ext/mailchimp-subscribe/subscribe with {email} through client/api.
 */
import { useId, useState } from 'react'
import { api } from '../../api'
import { defineIsland } from '../define'

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done' } | { kind: 'error'; message: string }

/** A plausible email address (the server validates for real). */
export function isEmailLike(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())
}

function Newsletter({ title }: { title: string }) {
  const [email, setEmail] = useState('')
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const id = useId()
  return (
    <section className="newsletter" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {status.kind === 'done' ? (
        <p role="status" data-testid="newsletter-done">
          Thank you for subscribing! Please check your inbox.
        </p>
      ) : (
        <form
          className="newsletter__form"
          noValidate
          onSubmit={async (e) => {
            e.preventDefault()
            if (!isEmailLike(email)) {
              setStatus({ kind: 'error', message: 'Please enter a valid email address.' })
              return
            }
            setStatus({ kind: 'sending' })
            try {
              const res = await api('/api/ext/mailchimp-subscribe/subscribe', {
                method: 'POST',
                body: { email: email.trim() },
              })
              if (res.code >= 200 && res.code < 300) setStatus({ kind: 'done' })
              else
                setStatus({
                  kind: 'error',
                  message:
                    typeof res.result === 'string' ? res.result : 'Subscription failed, please try again.',
                })
            } catch {
              setStatus({ kind: 'error', message: 'Subscription failed, please try again.' })
            }
          }}
        >
          <label htmlFor={`${id}-email`}>Email address</label>
          <div className="newsletter__row">
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="email"
              required
              value={email}
              aria-invalid={status.kind === 'error'}
              aria-describedby={status.kind === 'error' ? `${id}-err` : undefined}
              onChange={(e) => setEmail(e.currentTarget.value)}
              data-testid="newsletter-email"
            />
            <button type="submit" className="btn" disabled={status.kind === 'sending'}>
              {status.kind === 'sending' ? 'Subscribing…' : 'Subscribe'}
            </button>
          </div>
          {status.kind === 'error' ? (
            <p id={`${id}-err`} className="form-error" role="alert">
              {status.message}
            </p>
          ) : null}
        </form>
      )}
    </section>
  )
}

export const NewsletterIsland = defineIsland('newsletter', Newsletter)
