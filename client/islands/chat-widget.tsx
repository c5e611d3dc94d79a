/**
 * Support chat (catalogue §1: "use a chat support widget (desktop only)"). Self-hosted, no
 * third-party script: a launcher (shown on desktop only, by CSS at ≥ 768 px) opens a message form
 * that hands the enquiry to the shopper's mail client addressed to the support email.
 * 'Show Interest' buttons on out-of-stock tiles (`[data-show-interest]`, any island or plain SSR
 * markup) open the same form prefilled with the product link, on every screen size.
 */
import { useEffect, useId, useState } from 'react'
import { chatEnquiry, closeChat, openChat, showInterestMessage } from '../state/ui'
import { useSignalValue } from '../state/use-signal'

/** Builds the mailto: URL for an enquiry. */
export function enquiryMailto(to: string, name: string, email: string, message: string): string {
  const subject = 'Enquiry from the shop'
  const body = `${message}\n\n— ${name || 'A shopper'}${email ? ` <${email}>` : ''}`
  return `mailto:${encodeURIComponent(to)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`
}

export function ChatWidget({ supportEmail = 'care@example.com' }: { supportEmail?: string }) {
  const enquiry = useSignalValue(chatEnquiry)
  const [message, setMessage] = useState('')
  const [sent, setSent] = useState(false)
  const id = useId()

  // Delegated 'Show Interest' clicks: tiles stay plain server markup, no hydration needed.
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const btn = (e.target as Element | null)?.closest?.<HTMLElement>('[data-show-interest]')
      if (!btn) return
      e.preventDefault()
      const url = new URL(btn.dataset.productUrl ?? '/', window.location.href).href
      openChat({ message: showInterestMessage(btn.dataset.productName ?? '', url), productUrl: url })
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [])

  useEffect(() => {
    if (enquiry) {
      setMessage(enquiry.message)
      setSent(false)
    }
  }, [enquiry])

  return (
    <div className="chat">
      {enquiry ? null : (
        <button
          type="button"
          className="chat__launcher"
          data-testid="chat-launcher"
          onClick={() => openChat()}
        >
          <span aria-hidden="true">💬</span> Chat with us
        </button>
      )}
      {enquiry ? (
        <section className="chat__panel" aria-labelledby={`${id}-title`} data-testid="chat-panel">
          <div className="chat__head">
            <h2 id={`${id}-title`}>Message us</h2>
            <button type="button" className="chat__close" onClick={closeChat} aria-label="Close chat">
              ×
            </button>
          </div>
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
        </section>
      ) : null}
    </div>
  )
}
