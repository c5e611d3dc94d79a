/**
 * The auth modal island, present on every default-layout page. It only listens for the open event
 * (see open-auth-modal.ts) and for the session engine's sign-up request; the forms are loaded on
 * first open so the island adds almost nothing to each page's JavaScript.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { bus, EVENTS } from '../../engines/runtime/events'
import { defineIsland } from '../define'
import { useDialog } from '../layout/dialog'
import { Icon } from '../layout/icons'
import { AUTH_OPEN_EVENT, type AuthMode, REDIRECT_AFTER_LOGIN_KEY } from './open-auth-modal'

type BodyProps = { mode: AuthMode; setMode: (m: AuthMode) => void; onClose: () => void }

function AuthModal() {
  const [mode, setMode] = useState<AuthMode | null>(null)
  const [Body, setBody] = useState<ComponentType<BodyProps> | null>(null)

  useEffect(() => {
    const onOpen = (e: Event) => setMode(((e as CustomEvent).detail?.mode as AuthMode) ?? 'login')
    window.addEventListener(AUTH_OPEN_EVENT, onOpen)
    // "Sign-up modal. Opens when the session can no longer be refreshed."
    const offSignup = bus.on(EVENTS.openSignupModal, () => setMode('register'))
    // Sent home by the account access rule: ask for the login that leads back there.
    try {
      if (sessionStorage.getItem(REDIRECT_AFTER_LOGIN_KEY)) setMode('login')
    } catch {}
    return () => {
      window.removeEventListener(AUTH_OPEN_EVENT, onOpen)
      offSignup()
    }
  }, [])

  // The product page leaves a slot for the review form (the product route); load it only where it exists.
  useEffect(() => {
    if (document.getElementById('product-reviews-form')) {
      void import('../reviews/mount-review-form').then((m) => m.mountReviewForm())
    }
  }, [])

  useEffect(() => {
    if (mode && !Body) void import('./auth-forms').then((m) => setBody(() => m.AuthForms))
  }, [mode, Body])

  const dialog = useDialog<HTMLDivElement>(!!mode, () => setMode(null), { 'aria-labelledby': 'auth-title' })

  if (!mode) return null
  return (
    <div {...dialog} className="modal" data-testid="auth-modal">
      <button type="button" className="modal__backdrop" aria-label="Close" onClick={() => setMode(null)} />
      <div className="modal__box">
        <button type="button" className="modal__close" aria-label="Close" onClick={() => setMode(null)}>
          <Icon name="x" />
        </button>
        {Body ? <Body mode={mode} setMode={setMode} onClose={() => setMode(null)} /> : <p>Loading…</p>}
      </div>
    </div>
  )
}

export const AuthModalIsland = defineIsland('auth-modal', AuthModal)
