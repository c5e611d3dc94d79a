/**
 * The header's account button: signed in → a link to /my-account; otherwise it opens the login
 * modal (AuthModalIsland, on every default-layout page). Rendered inside the header island.
 */

import { useSignalValue } from '../../state/use-signal'
import { isLoggedIn } from '../../state/user'
import { Icon } from '../layout/icons'
import { openAuthModal } from './open-auth-modal'

export function AccountButton() {
  const loggedIn = useSignalValue(isLoggedIn)
  if (loggedIn) {
    return (
      <a href="/my-account" className="header__icon-btn" data-testid="account-button">
        <Icon name="user-round" />
        <span className="visually-hidden">My account</span>
      </a>
    )
  }
  return (
    <button
      type="button"
      className="header__icon-btn"
      data-testid="account-button"
      onClick={() => openAuthModal('login')}
    >
      <Icon name="user-round" />
      <span className="visually-hidden">Log in</span>
    </button>
  )
}
