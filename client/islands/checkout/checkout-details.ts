/**
 * The checkout form persisted on this device (the store's 'checkout' collection, IndexedDB with an
 * in-memory fallback), so a reload loses nothing. Reading or writing never fails the checkout: a
 * storage error is logged and the form carries on. Logout clears the whole collection (the runtime
 * does that for every user-owned store).
 */
import { collection } from '../../storage/storage-manager'

const CHECKOUT_DETAILS_KEY = 'details'

/** Where the checkout leaves the confirmation what happened in the payment window (sessionStorage: this tab only). */
export const PAY_NOTE_KEY = 'checkout-pay-note'

/** The saved checkout form, or null when none is saved or storage cannot be read. */
export async function loadCheckoutDetails(): Promise<unknown> {
  try {
    return await collection('checkout').getItem(CHECKOUT_DETAILS_KEY)
  } catch (err) {
    console.warn('checkout details could not be read', err)
    return null
  }
}

/** Saves the checkout form (the caller passes the persistable form: never the password). */
export async function saveCheckoutDetails(details: unknown): Promise<void> {
  try {
    await collection('checkout').setItem(CHECKOUT_DETAILS_KEY, details)
  } catch (err) {
    console.warn('checkout details could not be saved', err)
  }
}
