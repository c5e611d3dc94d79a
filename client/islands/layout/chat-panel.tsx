/**
 * The support chat's message form (loaded on first open by chat-widget.tsx, which frames it as a
 * dialog with its title and close button): the enquiry goes to
 * the shopper's mail client addressed to the support email (self-hosted, no third-party script).
 */
import { useEffect, useId, useState } from 'react'
import type { ChatEnquiry } from '../../state/ui'

/** Builds the mailto: URL for an enquiry. */
export function enquiryMailto(to: string, name: string, email: string, message: string): string {
  const subject = 'Enquiry from the shop'
  const body = `${message}\n\n— ${name || 'A shopper'}${email ? ` <${email}>` : ''}`
  return `mailto:${encodeURIComponent(to)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`
}

export function ChatPanel({ enquiry, supportEmail }: { enquiry: ChatEnquiry; supportEmail: string }) {
  const [message, setMessage] = useState(enquiry.message)
  const [sent, setSent] = useState(false)
  const id = useId()
  useEffect(() => {
    setMessage(enquiry.message)
    setSent(false)
  }, [enquiry])
  return (
    <>
      {sent ? (
        <p role="status">Your mail app has opened with the message. We usually reply within a day.</p>
      ) : (
        <form
          className="chat__form"
          onSubmit={(e) => {
            e.preventDefault()
            const data = new FormData(e.currentTarget)
            window.location.href = enquiryMailto(
              supportEmail,
              String(data.get('name') ?? ''),
              String(data.get('email') ?? ''),
              message,
            )
            setSent(true)
          }}
        >
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} name="name" autoComplete="name" />
          <label htmlFor={`${id}-email`}>Email</label>
          <input id={`${id}-email`} name="email" type="email" autoComplete="email" />
          <label htmlFor={`${id}-msg`}>Message</label>
          <textarea
            id={`${id}-msg`}
            name="message"
            rows={4}
            required
            value={message}
            data-testid="chat-message"
            onChange={(e) => setMessage(e.currentTarget.value)}
          />
          <button type="submit" className="btn">
            Send
          </button>
        </form>
      )}
    </>
  )
}
