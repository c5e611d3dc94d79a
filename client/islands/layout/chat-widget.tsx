/**
 * Support chat, offered on desktop only. Self-hosted, no third-party script: a launcher among the
 * header's tools (shown on desktop only, by CSS at ≥ 768 px) opens a message form (chat-panel.tsx, loaded on first open).
 * 'Show Interest' buttons on out-of-stock tiles (`[data-show-interest]`, in any island or plain SSR
 * markup) open the same form prefilled with the product link, on every screen size.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { type ChatEnquiry, chatEnquiry, closeChat, openChat, showInterestMessage } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { useDialog } from './dialog'
import { Icon } from './icons'

type PanelComponent = ComponentType<{ enquiry: ChatEnquiry; supportEmail: string }>

/** `supportEmail` is the shop's configured address (the layout always passes it). */
export function ChatWidget({ supportEmail }: { supportEmail?: string }) {
  const enquiry = useSignalValue(chatEnquiry)
  const [Panel, setPanel] = useState<PanelComponent | null>(null)
  const dialog = useDialog<HTMLElement>(!!(enquiry && Panel), closeChat, { 'aria-labelledby': 'chat-title' })

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
    if (!enquiry || Panel) return
    import('./chat-panel').then(
      (m) => setPanel(() => m.ChatPanel),
      (err) => console.error('chat panel failed to load', err),
    )
  }, [enquiry, Panel])

  return (
    <div className="chat">
      {/* Kept in the page while the panel is open (hidden), so focus can return to it on close. */}
      <button
        type="button"
        className="chat__launcher"
        data-testid="chat-launcher"
        hidden={!!(enquiry && Panel)}
        onClick={() => openChat()}
      >
        <Icon name="message-circle" />
        <span className="visually-hidden">Chat with us</span>
      </button>
      {enquiry && Panel ? (
        <section {...dialog} className="chat__panel" data-testid="chat-panel">
          <div className="chat__head">
            <h2 id="chat-title">Message us</h2>
            <button type="button" className="chat__close" onClick={closeChat} aria-label="Close chat">
              <Icon name="x" />
            </button>
          </div>
          <Panel enquiry={enquiry} supportEmail={supportEmail ?? ''} />
        </section>
      ) : null}
    </div>
  )
}
