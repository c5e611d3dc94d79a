/**
 * The auth modal island, present on every default-layout page. It renders the mode asked for
 * (see open-auth-modal.ts) and opens on the session engine's sign-up request; the forms are loaded
 * on first open so the island adds almost nothing to each page's JavaScript.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { bus, EVENTS } from '../../engines/runtime/events'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { useDialog } from '../layout/dialog'
import { Icon } from '../layout/icons'
import {
  type AuthMode,
  authModalMode,
  closeAuthModal,
  openAuthModal,
  REDIRECT_AFTER_LOGIN_KEY,
} from './open-auth-modal'

type BodyProps = { mode: AuthMode; setMode: (m: AuthMode) => void; onClose: () => void }

function AuthModal() {
  const mode = useSignalValue(authModalMode)
  const [Body, setBody] = useState<ComponentType<BodyProps> | null>(null)

  useEffect(() => {
    // "Sign-up modal. Opens when the session can no longer be refreshed."
    const offSignup = bus.on(EVENTS.openSignupModal, () => openAuthModal('register'))
    // Sent home by the account access rule: ask for the login that leads back there.
    try {
      if (sessionStorage.getItem(REDIRECT_AFTER_LOGIN_KEY)) openAuthModal('login')
    } catch {}
    return offSignup
  }, [])

  // The product page leaves a slot for the review form (the product route), below the first screen:
  // the form's code (and its schema library) loads when the slot comes within a screen of view, not
  // while the page is still starting.
  useEffect(() => {
    const slot = document.getElementById('product-reviews-form')
    if (!slot) return
    const mount = () => void import('../reviews/mount-review-form').then((m) => m.mountReviewForm())
    if (typeof IntersectionObserver === 'undefined') return mount()
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        seen.disconnect()
        mount()
      },
      { rootMargin: '100% 0px' },
    )
    seen.observe(slot)
    return () => seen.disconnect()
  }, [])

  useEffect(() => {
    if (mode && !Body) void import('./auth-forms').then((m) => setBody(() => m.AuthForms))
  }, [mode, Body])

  const dialog = useDialog<HTMLDivElement>(!!mode, closeAuthModal, { 'aria-labelledby': 'auth-title' })

  if (!mode) return null
  return (
    <div {...dialog} className="modal" data-testid="auth-modal">
      <button type="button" className="modal__backdrop" aria-label="Close" onClick={closeAuthModal} />
      <div className="modal__box">
        <button type="button" className="modal__close" aria-label="Close" onClick={closeAuthModal}>
          <Icon name="x" />
        </button>
        {Body ? <Body mode={mode} setMode={openAuthModal} onClose={closeAuthModal} /> : <p>Loading…</p>}
      </div>
    </div>
  )
}

export const AuthModalIsland = defineIsland('auth-modal', AuthModal)
