/** Curated home-page content, the shop's contact details and colour swatches. */

/**
 * The one support address and phone line of the shop: the contact page, the footer block, the
 * common-config document and the stores' switchboard all show these. Deployments override the
 * e-mail address with the SUPPORT_EMAIL variable, whose default is this one.
 */
export const SUPPORT_EMAIL = 'care@ode-atelier.example'
export const SUPPORT_PHONE = '+91 22 6120 4400'
/** When the phone line is answered. */
export const SUPPORT_HOURS = 'Monday to Saturday, 10:00 to 19:00 IST'

/** "Curated home-page queries use category ids 189 and 190 and the category names Performance Fabrics and Tees." */
export const CURATED_HOME_QUERIES = [
  { categoryId: 189, name: 'Performance Fabrics' },
  { categoryId: 190, name: 'Tees' },
] as const

/** Home popup and strip data types: "popup and strip data of type strip, exit_popup or generic_popup". */
export const HOME_POPUP_TYPES = ['strip', 'exit_popup', 'generic_popup'] as const

/** "A colour swatch mapping for named colours exists." Lower-case colour label → CSS colour. */
const COLOR_SWATCHES: Readonly<Record<string, string>> = {
  black: '#000000',
  white: '#ffffff',
  red: '#c62828',
  maroon: '#800000',
  pink: '#f48fb1',
  fuchsia: '#d81b60',
  orange: '#ef6c00',
  yellow: '#fdd835',
  mustard: '#e1ad01',
  green: '#2e7d32',
  olive: '#808000',
  mint: '#98ff98',
  teal: '#00897b',
  blue: '#1565c0',
  navy: '#1a237e',
  'sky blue': '#87ceeb',
  purple: '#6a1b9a',
  lavender: '#b39ddb',
  brown: '#6d4c41',
  beige: '#f5f5dc',
  cream: '#fffdd0',
  ivory: '#fffff0',
  grey: '#9e9e9e',
  gray: '#9e9e9e',
  silver: '#c0c0c0',
  gold: '#d4af37',
  peach: '#ffcba4',
  rust: '#b7410e',
  wine: '#722f37',
  multicolor: 'linear-gradient(90deg,#c62828,#fdd835,#2e7d32,#1565c0)',
}

/** The swatch colour for a colour label (case- and space-insensitive), or null when unmapped. */
export function colorSwatch(label: string | null | undefined): string | null {
  if (!label) return null
  return COLOR_SWATCHES[label.trim().toLowerCase().replace(/\s+/g, ' ')] ?? null
}
