/**
 * The courier's configuration: the API base and the API user's credentials (secrets
 * SHIPROCKET_EMAIL / SHIPROCKET_PASSWORD), the pickup location and the address returns come back
 * to. Without credentials there is no courier: "ready to ship" is refused with a message saying
 * so, and checkout reads the PIN table alone.
 */
import type { Party } from './port'
import { type ShiprocketConfig, shiprocketPort } from './shiprocket'

/** The courier port for this environment, or null when the courier is not configured. */
export function courierConfig(env: Env): ShiprocketConfig | null {
  const e = env as Env & Record<string, string | undefined>
  const base = (e.SHIPROCKET_API_BASE ?? '').replace(/\/+$/, '')
  if (!base || !e.SHIPROCKET_EMAIL || !e.SHIPROCKET_PASSWORD) return null
  return {
    base,
    email: e.SHIPROCKET_EMAIL,
    password: e.SHIPROCKET_PASSWORD,
    pickupLocation: e.COURIER_PICKUP_LOCATION || 'Primary',
    pickupPostcode: e.COURIER_PICKUP_POSTCODE || '560001',
    returnTo: returnAddress(e.COURIER_RETURN_ADDRESS ?? ''),
    waitMs: waitMs(e.COURIER_WAIT_MS),
  }
}

/** How long a shopper's request waits for the courier (COURIER_WAIT_MS, at most 8 s). */
const COURIER_WAIT_MS = 2500
function waitMs(value: string | undefined): number {
  const n = Number(value)
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0
    ? Math.min(n, 8000)
    : COURIER_WAIT_MS
}

/** COURIER_RETURN_ADDRESS: "name|address|city|state|postcode|phone". */
function returnAddress(value: string): Party {
  const [name, address, city, state, postcode, phone] = value.split('|').map((s) => s.trim())
  return {
    name: name || 'Returns desk',
    lastName: '',
    address: address || 'Warehouse',
    city: city || 'Bengaluru',
    state: state || 'Karnataka',
    country: 'India',
    postcode: postcode || '560001',
    email: '',
    phone: phone || '9999999999',
  }
}

export function courierPort(env: Env) {
  const cfg = courierConfig(env)
  return cfg ? shiprocketPort(env.DB, cfg) : null
}
