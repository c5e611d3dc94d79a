/** The physical stores of the store locator. */
import type { StoreLocation } from '../../../shared/schemas/catalog'
import { CITIES } from './data'

/** One store per city of the demo data; its image is a street map around the store. */
export function buildStores(): StoreLocation[] {
  return CITIES.map((c, k) => ({
    id: k + 1,
    code: c.code,
    name: c.name,
    city: c.city,
    address: [c.street, `${c.city} ${c.pincode}, ${c.state}`, 'India'],
    phone: c.phone,
    email: `${c.code.split('-')[0]}@ode-atelier.example`,
    hours: c.hours.split(', ').map((h) => h.replace(/^./, (x) => x.toUpperCase())),
    lat: c.lat,
    lng: c.lng,
    description: `<p>${DESCRIPTIONS[k] ?? ''}</p><p>Bridal and styling appointments: call ${c.phone}. Alterations are free for a year on everything bought here.</p>`,
    image: `/b/map-${c.code}.svg`,
    map_image: `/b/map-${c.code}.svg`,
    country_id: 'IN',
    position: k,
  }))
}

const DESCRIPTIONS = [
  'Our first and largest store, in a 1920s building a short walk from the Gateway of India: the full collection over two floors, the bridal salon and the tailoring room.',
  'A quiet atelier among the ruins of Mehrauli, with a courtyard for fittings and the whole bridal and menswear collection.',
  'A bright studio on 12th Main with the ready-to-wear collection, tees and performance wear, and a weekend trunk show every month.',
  'Three rooms on Road No. 12 for sarees, lehengas and sherwanis, with a dedicated Kanjeevaram and Banarasi room.',
  'Our Kolkata home in a Park Street mansion: handloom sarees from Phulia and Shantipur, kantha and the menswear edit.',
  'A boutique in a C-Scheme bungalow, with block-printed cottons from Bagru and Sanganer and our jewellery and bags.',
]
