/**
 * A guest's answer to "E-mail me a reminder if I leave my bag", sent with the cart's snapshot
 * (POST /api/state/send-state) once the e-mail step is valid. Loaded only when a guest has ticked
 * (or unticked) the box, so every other checkout carries none of it.
 */
import { api } from '../../api'
import { cartServerToken } from '../../state/cart'
import type { PersonalDetails } from './checkout-state'

export function sendCartReminder({ emailAddress, cartReminder }: PersonalDetails): void {
  const id = cartServerToken.peek()
  if (id)
    void api('/api/state/send-state', {
      method: 'POST',
      body: { id, state: {}, reminder: { email: emailAddress, consent: cartReminder } },
    }).catch(() => {})
}
