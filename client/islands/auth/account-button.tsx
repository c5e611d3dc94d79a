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
  const content = (
    <>
      <Icon name="user-round" />
      <span className="visually-hidden">{loggedIn ? 'My account' : 'Log in'}</span>
    </>
  )
  return loggedIn ? (
    <a href="/my-account" className="header__icon-btn" data-testid="account-button">
      {content}
    </a>
  ) : (
    <button
      type="button"
      className="header__icon-btn"
      data-testid="account-button"
      onClick={() => openAuthModal('login')}
    >
      {content}
    </button>
  )
}
