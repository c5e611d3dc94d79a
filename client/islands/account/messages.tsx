/**
 * The account's message choices: order updates on WhatsApp for a phone number (opted in here or
 * at checkout; STOP in WhatsApp opts out), and cart reminders (one an hour and one a day after a
 * bag is left, never more).
 */

import { CheckboxField } from '@shared/components/checkout/form-field'
import { useEffect, useState } from 'react'
import { userGet, userSend } from './account-api'

interface Preferences {
  whatsappPhones: string[]
  cartReminders: boolean
}

export function MessagePreferences() {
  const [prefs, setPrefs] = useState<Preferences | null>(null)
  const [phone, setPhone] = useState('')
  const [reminders, setReminders] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  useEffect(() => {
    void userGet<Preferences>('messages/preferences').then((r) => {
      if (r.code !== 200) return setPrefs({ whatsappPhones: [], cartReminders: false })
      setPrefs(r.result)
      setReminders(r.result.cartReminders)
    })
  }, [])
  if (prefs === null) return <p role="status">Loading…</p>
  const whatsapp = async (optIn: boolean, number: string) => {
    const r = await userSend<{ phone: string }>('messages/consent', 'POST', { phone: number, optIn })
    if (r.code !== 200) return setMessage(String(r.result))
    setPrefs({
      ...prefs,
      whatsappPhones: optIn
        ? [...new Set([r.result.phone, ...prefs.whatsappPhones])]
        : prefs.whatsappPhones.filter((p) => p !== r.result.phone),
    })
    setPhone('')
    setMessage(
      optIn
        ? `Order updates will come to ${r.result.phone} on WhatsApp.`
        : `No more WhatsApp messages to ${r.result.phone}.`,
    )
  }
  return (
    <form
      className="account-form"
      data-testid="message-preferences"
      onSubmit={async (e) => {
        e.preventDefault()
        if (phone.trim()) await whatsapp(true, phone)
        if (reminders !== prefs.cartReminders) {
          const r = await userSend('messages/reminders', 'POST', { optIn: reminders })
          if (r.code !== 200) return setMessage(String(r.result))
          setPrefs((p) => (p ? { ...p, cartReminders: reminders } : p))
          setMessage(reminders ? 'Cart reminders are on.' : 'Cart reminders are off.')
        }
      }}
    >
      <h2>Messages</h2>
      {prefs.whatsappPhones.length ? (
        <ul>
          {prefs.whatsappPhones.map((p) => (
            <li key={p}>
              WhatsApp order updates to {p}{' '}
              <button type="button" className="btn" onClick={() => void whatsapp(false, p)}>
                Stop
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>You get order updates by e-mail only.</p>
      )}
      <label htmlFor="whatsapp-phone">Add a mobile number for WhatsApp order updates</label>
      <input
        id="whatsapp-phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={phone}
        maxLength={20}
        onChange={(e) => setPhone(e.target.value)}
      />
      <CheckboxField
        id="cart-reminders"
        label="Remind me of a bag I left (at most twice)"
        checked={reminders}
        onChange={setReminders}
      />
      <button type="submit" className="btn btn--primary">
        Save my message choices
      </button>
      {message ? <p role="status">{message}</p> : null}
    </form>
  )
}
