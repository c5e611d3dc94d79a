/**
 * Support chat, offered on desktop only. Self-hosted, no third-party script: a launcher (shown on
 * desktop only, by CSS at ≥ 768 px) opens a message form (chat-panel.tsx, loaded on first open).
 * 'Show Interest' buttons on out-of-stock tiles (`[data-show-interest]`, in any island or plain SSR
 * markup) open the same form prefilled with the product link, on every screen size.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { type ChatEnquiry, chatEnquiry, openChat, showInterestMessage } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'

type PanelComponent = ComponentType<{ enquiry: ChatEnquiry; supportEmail: string }>

export function ChatWidget({ supportEmail = 'care@example.com' }: { supportEmail?: string }) {
  const enquiry = useSignalValue(chatEnquiry)
  const [Panel, setPanel] = useState<PanelComponent | null>(null)

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
      {enquiry ? null : (
        <button
          type="button"
          className="chat__launcher"
          data-testid="chat-launcher"
          onClick={() => openChat()}
        >
          <svg
            aria-hidden="true"
            width="18"
            height="18"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
          >
            <path d="M4 5h16v11H9l-5 4V5z" />
          </svg>
          Chat with us
        </button>
      )}
      {enquiry && Panel ? <Panel enquiry={enquiry} supportEmail={supportEmail} /> : null}
    </div>
  )
}
