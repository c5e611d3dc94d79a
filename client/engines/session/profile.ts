/**
 * Account changes. A profile update is queued (offline-capable) and, once answered with 200,
 * replaces the current user with 'Account data has successfully been updated'. An e-mail or
 * password change needs the current password, so it is sent at once and never queued (the
 * password is not stored on the device); a changed password signs in again with the new one.
 */
import { MSG } from '@shared/i18n/messages'
import { type CurrentUser, currentUser } from '../../state/user'
import { adoptUser } from './account-data'
import { errorText, type LoginResult, type SessionDeps } from './deps'
import { login } from './sign-in'

/** callback_event of the queued profile update. */
const PROFILE_UPDATED_EVENT = 'user-after-profile-update'

export async function updateProfile(deps: SessionDeps, customer: Record<string, unknown>): Promise<void> {
  await deps.queue.queue({
    url: '/api/user/me',
    auth: true,
    payload: { method: 'POST', body: { customer } },
    callback_event: PROFILE_UPDATED_EVENT,
  })
}

/** Takes over the answer of a queued profile update. */
export function listenToProfileUpdates(deps: SessionDeps): void {
  deps.bus.on(PROFILE_UPDATED_EVENT, (payload) => {
    const { code, result } = payload as { code: number; result: unknown }
    if (code === 200 && result && typeof result === 'object') {
      // Said once the device holds the new account too (a reload right after shows it).
      void adoptUser(deps, result as CurrentUser)
        .catch((err) => console.warn('[session] the updated account was not stored', err))
        .then(() => deps.notify({ type: 'success', message: MSG.accountUpdated }))
    }
  })
}

/** Changes the e-mail address (with the current password); 200 replaces the current user. */
export async function changeEmail(
  deps: SessionDeps,
  customer: Record<string, unknown>,
  currentPassword: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const res = await deps.queue.execute({
    url: '/api/user/me',
    auth: true,
    payload: { method: 'POST', body: { customer, currentPassword } },
    silent: true,
  })
  if (res.code !== 200 || !res.result || typeof res.result !== 'object') {
    return { ok: false, message: errorText(res.result, 'The e-mail address could not be changed.') }
  }
  await adoptUser(deps, res.result as CurrentUser)
  deps.notify({ type: 'success', message: MSG.accountUpdated })
  return { ok: true }
}

/** POST change-password; 200 → message and automatic login with the new password. */
export async function changePassword(
  deps: SessionDeps,
  currentPassword: string,
  newPassword: string,
): Promise<LoginResult> {
  const res = await deps.queue.execute({
    url: '/api/user/change-password',
    auth: true,
    payload: { method: 'POST', body: { currentPassword, newPassword } },
    silent: true,
  })
  if (res.code !== 200) {
    const message = errorText(res.result, 'Password change failed')
    deps.notify({ type: 'error', message, action1: { label: MSG.ok } })
    return { ok: false, message }
  }
  deps.notify({ type: 'success', message: MSG.passwordChanged })
  const email = currentUser.value?.email
  return email ? login(deps, email, newPassword) : { ok: true, redirectTo: null }
}

/** POST reset-password {email}. */
export async function resetPassword(deps: SessionDeps, email: string): Promise<boolean> {
  const res = await deps.queue.execute({
    url: '/api/user/reset-password',
    payload: { method: 'POST', body: { email } },
  })
  return res.code === 200
}
