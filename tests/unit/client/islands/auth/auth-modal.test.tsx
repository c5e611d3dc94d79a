import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { AuthModalIsland } from '../../../../../client/islands/auth/auth-modal'
import { closeAuthModal, openAuthModal } from '../../../../../client/islands/auth/open-auth-modal'

// The header's account button may be pressed before the auth modal's island has mounted: a first
// click during hydration is replayed on the header as soon as the header has hydrated. The modal
// renders whatever was asked for by then, so that click is not lost.
describe('the auth modal', () => {
  afterEach(closeAuthModal)

  it('renders nothing until it is asked for', () => {
    expect(renderToString(<AuthModalIsland />)).not.toContain('data-testid="auth-modal"')
  })

  it('opens at its first render when it was asked for before it mounted', () => {
    openAuthModal('register')
    expect(renderToString(<AuthModalIsland />)).toContain('data-testid="auth-modal"')
    closeAuthModal()
    expect(renderToString(<AuthModalIsland />)).not.toContain('data-testid="auth-modal"')
  })
})
