/** The physical stores of the store locator. */
import type { StoreLocation } from '../../../shared/schemas/catalog'
import { CITIES } from './data'

/** One store per city of the demo data. */
export function buildStores(): StoreLocation[] {
  return CITIES.map((c, k) => ({
    id: k + 1,
    code: c.code,
    name: c.name,
    city: c.city,
    address: [c.street, `${c.city}, India`],
    phone: `+91 ${['22', '11', '80', '40', '33', '141'][k]} 4000 ${String(1000 + k * 111)}`,
    email: `${c.code}@example.com`,
    hours: ['Mon-Sat: 11:00 - 20:00', 'Sun: 12:00 - 19:00'],
    lat: c.lat,
    lng: c.lng,
    description: `Our ${c.name} in ${c.city}: the full ready-to-wear collection, bridal appointments and alterations.`,
    image: `/b/store-${c.code}.svg`,
    country_id: 'IN',
    position: k,
  }))
}
