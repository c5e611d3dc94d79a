/**
 * Contact form island (/contact): sends the message to the store's support address through the
 * mail service (GET /api/ext/mail-service/get-token, then POST send-email) via client/api. When
 * sending fails, the shopper gets a mailto: link with the message prefilled instead.
 */
import { useState } from 'react'
import { api } from '../../api'
import { defineIsland } from '../define'
import { object, schemaOf, str } from '../props-check'

interface ContactFormProps {
  supportEmail: string
}
const ContactFormPropsSchema = schemaOf<ContactFormProps>(object({ supportEmail: str }))

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; reason: string }

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Sends the contact message; resolves with the server's status or throws with its message. */
export async function sendContactMessage(input: {
  name: string
  email: string
  subject: string
  message: string
  supportEmail: string
}): Promise<string> {
  const token = await api<string>('ext/mail-service/get-token')
  if (token.code !== 200 || typeof token.result !== 'string') throw new Error(String(token.result))
  const res = await api<string>('ext/mail-service/send-email', {
    method: 'POST',
    body: {
      sourceAddress: input.email,
      targetAddress: input.supportEmail,
      subject: input.subject || `Message from ${input.name}`,
      emailText: `From: ${input.name} <${input.email}>\n\n${input.message}`,
      token: token.result,
    },
  })
  if (res.code !== 200) throw new Error(String(res.result))
  return String(res.result)
}

function ContactForm({ supportEmail }: ContactFormProps) {
  const [fields, setFields] = useState({ name: '', email: '', subject: '', message: '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const set = (k: keyof typeof fields) => (e: { currentTarget: { value: string } }) =>
    setFields((f) => ({ ...f, [k]: e.currentTarget.value }))
  const mailto = `mailto:${supportEmail}?subject=${encodeURIComponent(fields.subject || 'Contact')}&body=${encodeURIComponent(fields.message)}`

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    const next: Record<string, string> = {}
    if (!fields.name.trim()) next.name = 'Field is required.'
    if (!EMAIL_RE.test(fields.email.trim())) next.email = 'Please enter a valid email address.'
    if (!fields.message.trim()) next.message = 'Field is required.'
    setErrors(next)
    if (Object.keys(next).length) return
    setStatus({ kind: 'sending' })
    try {
      await sendContactMessage({ ...fields, supportEmail })
      setStatus({ kind: 'sent' })
    } catch (err) {
      setStatus({ kind: 'failed', reason: err instanceof Error ? err.message : String(err) })
    }
  }

  if (status.kind === 'sent') {
    return (
      <p className="contact-form__sent" role="status" data-testid="contact-sent">
        Thank you, your message has been sent. We will get back to you soon.
      </p>
    )
  }
  return (
    <form className="contact-form" noValidate onSubmit={(e) => void submit(e)} data-testid="contact-form">
      {(['name', 'email', 'subject'] as const).map((k) => (
        <label key={k} className="form-field">
          {k === 'name' ? 'Name *' : k === 'email' ? 'Email *' : 'Subject'}
          <input
            type={k === 'email' ? 'email' : 'text'}
            name={k}
            value={fields[k]}
            onChange={set(k)}
            aria-invalid={!!errors[k]}
            autoComplete={k === 'name' ? 'name' : k === 'email' ? 'email' : 'off'}
          />
          {errors[k] ? <span className="form-error">{errors[k]}</span> : null}
        </label>
      ))}
      <label className="form-field">
        Message *
        <textarea
          name="message"
          rows={6}
          value={fields.message}
          onChange={set('message')}
          aria-invalid={!!errors.message}
        />
        {errors.message ? <span className="form-error">{errors.message}</span> : null}
      </label>
      {status.kind === 'failed' ? (
        <p className="form-error" role="alert" data-testid="contact-failed">
          We could not send your message ({status.reason}). Please write to us at{' '}
          <a href={mailto}>{supportEmail}</a>.
        </p>
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={status.kind === 'sending'}>
        {status.kind === 'sending' ? 'Sending…' : 'Send message'}
      </button>
      <p className="contact-form__alt">
        Or email us directly: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
      </p>
    </form>
  )
}

export const ContactFormIsland = defineIsland('contact-form', ContactForm, ContactFormPropsSchema)
