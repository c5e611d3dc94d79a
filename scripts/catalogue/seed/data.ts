/**
 * Master data of the demo catalogue: an Indian designer-fashion shop in INR. Option ids are
 * stable (they appear in URLs, filters and tests). The colours and silhouettes are the image
 * route's palette (worker/pages/images/palette.ts): the live worker draws them, the generator picks
 * from them.
 */
import type { Silhouette } from '../../../worker/pages/images/palette'

export interface SizeDef {
  id: number
  label: string
}

/** Size attribute options (attribute 142). */
export const SIZES: readonly SizeDef[] = [
  { id: 167, label: 'XS' },
  { id: 168, label: 'S' },
  { id: 169, label: 'M' },
  { id: 170, label: 'L' },
  { id: 171, label: 'XL' },
  { id: 172, label: 'XXL' },
  { id: 173, label: 'Free Size' },
]
export const APPAREL_SIZES = SIZES.slice(0, 6)
export const FREE_SIZE = SIZES[6] as SizeDef

export const GENDERS = [
  { id: 201, label: 'Women' },
  { id: 202, label: 'Men' },
  { id: 203, label: 'Unisex' },
] as const

export const RTS_OPTIONS = [
  { id: 211, label: 'Ready to Ship' },
  { id: 212, label: 'Made to Order' },
] as const

export const DISCOUNT_OPTIONS = [
  { id: 221, label: '10% and above', min: 10 },
  { id: 222, label: '20% and above', min: 20 },
  { id: 223, label: '30% and above', min: 30 },
  { id: 224, label: '50% and above', min: 50 },
] as const

export const DESIGNERS = [
  { id: 301, label: 'Anita Rao' },
  { id: 302, label: 'Kabir Mehra' },
  { id: 303, label: 'Meera Iyer' },
  { id: 304, label: 'Raghav Sethi' },
  { id: 305, label: 'Tara Banerjee' },
  { id: 306, label: 'Vikram Joshi' },
  { id: 307, label: 'Nandini Kapoor' },
  { id: 308, label: 'Aarav Malhotra' },
] as const

export interface GarmentDef {
  key: string
  /** HSN code of the garment (chapters 61 knitted, 62 woven): its GST slab follows from it. */
  hsn: string
  /** category_product option id and label. */
  optionId: number
  label: string
  silhouette: Silhouette
  categoryId: number
  gender: 201 | 202 | 203
  minPrice: number
  maxPrice: number
  freeSize?: boolean
  fabrics: readonly string[]
  /** Relative weight in the catalogue mix. */
  weight: number
}

/** Configurable apparel (the bulk of the catalogue). */
export const GARMENTS: readonly GarmentDef[] = [
  {
    key: 'saree',
    hsn: '62114290',
    optionId: 401,
    label: 'Saree',
    silhouette: 'saree',
    categoryId: 10,
    gender: 201,
    minPrice: 3999,
    maxPrice: 89999,
    freeSize: true,
    fabrics: ['Banarasi Silk', 'Chanderi', 'Kanjeevaram', 'Organza', 'Georgette', 'Linen'],
    weight: 5,
  },
  {
    key: 'lehenga',
    hsn: '62045290',
    optionId: 402,
    label: 'Lehenga',
    silhouette: 'lehenga',
    categoryId: 11,
    gender: 201,
    minPrice: 14999,
    maxPrice: 249999,
    fabrics: ['Velvet', 'Raw Silk', 'Net', 'Brocade'],
    weight: 3,
  },
  {
    key: 'kurta',
    hsn: '62063000',
    optionId: 403,
    label: 'Kurta',
    silhouette: 'kurta',
    categoryId: 12,
    gender: 201,
    minPrice: 1499,
    maxPrice: 12999,
    fabrics: ['Cotton', 'Chikankari', 'Mulmul', 'Khadi', 'Silk'],
    weight: 5,
  },
  {
    key: 'dress',
    hsn: '62044290',
    optionId: 404,
    label: 'Dress',
    silhouette: 'dress',
    categoryId: 13,
    gender: 201,
    minPrice: 2499,
    maxPrice: 24999,
    fabrics: ['Crepe', 'Linen', 'Satin', 'Cotton Poplin'],
    weight: 4,
  },
  {
    key: 'anarkali',
    hsn: '62044290',
    optionId: 405,
    label: 'Anarkali',
    silhouette: 'anarkali',
    categoryId: 14,
    gender: 201,
    minPrice: 5999,
    maxPrice: 59999,
    fabrics: ['Georgette', 'Silk', 'Chanderi'],
    weight: 3,
  },
  {
    key: 'shirt',
    hsn: '62052000',
    optionId: 406,
    label: 'Shirt',
    silhouette: 'shirt',
    categoryId: 20,
    gender: 202,
    minPrice: 1999,
    maxPrice: 8999,
    fabrics: ['Linen', 'Oxford Cotton', 'Khadi', 'Ikat'],
    weight: 4,
  },
  {
    key: 'sherwani',
    hsn: '62033200',
    optionId: 407,
    label: 'Sherwani',
    silhouette: 'sherwani',
    categoryId: 21,
    gender: 202,
    minPrice: 24999,
    maxPrice: 149999,
    fabrics: ['Jacquard', 'Raw Silk', 'Velvet'],
    weight: 2,
  },
  {
    key: 'jacket',
    hsn: '62033300',
    optionId: 408,
    label: 'Jacket',
    silhouette: 'jacket',
    categoryId: 22,
    gender: 202,
    minPrice: 4999,
    maxPrice: 29999,
    fabrics: ['Nehru Linen', 'Bandhgala Wool', 'Quilted Cotton', 'Tweed'],
    weight: 3,
  },
  {
    key: 'mens-kurta',
    hsn: '62052000',
    optionId: 409,
    label: 'Kurta',
    silhouette: 'kurta',
    categoryId: 23,
    gender: 202,
    minPrice: 1999,
    maxPrice: 14999,
    fabrics: ['Cotton', 'Silk', 'Linen'],
    weight: 3,
  },
  {
    key: 'tee',
    hsn: '61091000',
    optionId: 410,
    label: 'Tee',
    silhouette: 'tee',
    categoryId: 190,
    gender: 203,
    minPrice: 799,
    maxPrice: 2999,
    fabrics: ['Organic Cotton', 'Slub Cotton', 'Supima'],
    weight: 3,
  },
  {
    key: 'performance',
    hsn: '61121200',
    optionId: 411,
    label: 'Track Jacket',
    silhouette: 'jacket',
    categoryId: 189,
    gender: 203,
    minPrice: 1999,
    maxPrice: 6999,
    fabrics: ['Dry-Tech Knit', 'Bamboo Knit', 'Recycled Poly'],
    weight: 2,
  },
]

/** category_product options for the non-configurable types. */
export const ACCESSORY_OPTION = { id: 420, label: 'Accessories' } as const
export const GIFT_OPTION = { id: 421, label: 'Gifts' } as const

interface CategoryDef {
  id: number
  parent: number
  name: string
  slug: string
  position: number
  includeInMenu: boolean
  /** Menu order (catalogue §2: a missing value counts as 100000). */
  menuOrder?: number
  isActive?: boolean
}

/** The category tree under root 2 'Default Category'. */
export const CATEGORY_DEFS: readonly CategoryDef[] = [
  { id: 2, parent: 1, name: 'Default Category', slug: 'default-category', position: 1, includeInMenu: true },
  { id: 3, parent: 2, name: 'Women', slug: 'women', position: 1, includeInMenu: true, menuOrder: 1 },
  { id: 4, parent: 2, name: 'Men', slug: 'men', position: 2, includeInMenu: true, menuOrder: 2 },
  {
    id: 5,
    parent: 2,
    name: 'Accessories',
    slug: 'accessories',
    position: 3,
    includeInMenu: true,
    menuOrder: 4,
  },
  { id: 6, parent: 2, name: 'Sale', slug: 'sale', position: 5, includeInMenu: true, menuOrder: 6 },
  { id: 7, parent: 2, name: 'New In', slug: 'new-in', position: 0, includeInMenu: true, menuOrder: 0 },
  { id: 8, parent: 2, name: 'Gifts', slug: 'gifts', position: 6, includeInMenu: true },
  // An empty menu category: include_in_menu but no products and no children (hidden by the menu rule).
  {
    id: 9,
    parent: 2,
    name: 'Bridal Edit',
    slug: 'bridal-edit',
    position: 7,
    includeInMenu: true,
    menuOrder: 7,
  },
  // Not in the menu at all.
  { id: 15, parent: 2, name: 'Archive', slug: 'archive', position: 8, includeInMenu: false },
  // An inactive category: invisible to the storefront (tree, lookups, URL map).
  {
    id: 16,
    parent: 2,
    name: 'Retired Collection',
    slug: 'retired-collection',
    position: 10,
    includeInMenu: false,
    isActive: false,
  },
  {
    id: 189,
    parent: 2,
    name: 'Performance Fabrics',
    slug: 'performance-fabrics',
    position: 4,
    includeInMenu: true,
    menuOrder: 5,
  },
  { id: 190, parent: 2, name: 'Tees', slug: 'tees', position: 9, includeInMenu: true, menuOrder: 3 },
  { id: 10, parent: 3, name: 'Sarees', slug: 'sarees', position: 1, includeInMenu: true, menuOrder: 1 },
  { id: 11, parent: 3, name: 'Lehengas', slug: 'lehengas', position: 2, includeInMenu: true, menuOrder: 2 },
  { id: 12, parent: 3, name: 'Kurtas', slug: 'kurtas', position: 3, includeInMenu: true, menuOrder: 3 },
  { id: 13, parent: 3, name: 'Dresses', slug: 'dresses', position: 4, includeInMenu: true, menuOrder: 4 },
  { id: 14, parent: 3, name: 'Anarkalis', slug: 'anarkalis', position: 5, includeInMenu: true, menuOrder: 5 },
  { id: 20, parent: 4, name: 'Shirts', slug: 'shirts', position: 1, includeInMenu: true, menuOrder: 1 },
  { id: 21, parent: 4, name: 'Sherwanis', slug: 'sherwanis', position: 2, includeInMenu: true, menuOrder: 2 },
  { id: 22, parent: 4, name: 'Jackets', slug: 'jackets', position: 3, includeInMenu: true, menuOrder: 3 },
  { id: 23, parent: 4, name: 'Kurtas', slug: 'men-kurtas', position: 4, includeInMenu: true, menuOrder: 4 },
  { id: 30, parent: 5, name: 'Jewellery', slug: 'jewellery', position: 1, includeInMenu: true },
  { id: 31, parent: 5, name: 'Bags', slug: 'bags', position: 2, includeInMenu: true },
  { id: 32, parent: 5, name: 'Small Gifts', slug: 'small-gifts', position: 3, includeInMenu: true },
]

/** The shop's own stores (street addresses, PIN codes, phone lines and opening hours). */
export const CITIES = [
  {
    code: 'mumbai-colaba',
    city: 'Mumbai',
    state: 'Maharashtra',
    pincode: '400001',
    name: 'Colaba Flagship',
    lat: 18.9067,
    lng: 72.8147,
    street: 'Ground floor, Sunny House, 16 Mandlik Road, Colaba',
    phone: '+91 22 6120 4401',
    hours: 'Monday to Saturday 11:00 to 20:00, Sunday 12:00 to 19:00',
  },
  {
    code: 'delhi-mehrauli',
    city: 'New Delhi',
    state: 'Delhi',
    pincode: '110030',
    name: 'Mehrauli Atelier',
    lat: 28.5244,
    lng: 77.1855,
    street: 'Kila No. 3, Kalka Das Marg, near Qutub Minar, Mehrauli',
    phone: '+91 11 4105 8802',
    hours: 'Tuesday to Sunday 11:00 to 20:00, closed on Mondays',
  },
  {
    code: 'bengaluru-indiranagar',
    city: 'Bengaluru',
    state: 'Karnataka',
    pincode: '560038',
    name: 'Indiranagar Studio',
    lat: 12.9719,
    lng: 77.6412,
    street: '1087, 12th Main Road, HAL 2nd Stage, Indiranagar',
    phone: '+91 80 4718 2203',
    hours: 'Every day 11:00 to 21:00',
  },
  {
    code: 'hyderabad-banjara-hills',
    city: 'Hyderabad',
    state: 'Telangana',
    pincode: '500034',
    name: 'Banjara Hills Store',
    lat: 17.4126,
    lng: 78.4482,
    street: '8-2-293/82, Road No. 12, Banjara Hills',
    phone: '+91 40 2335 6604',
    hours: 'Monday to Saturday 11:00 to 20:30, Sunday 12:00 to 19:00',
  },
  {
    code: 'kolkata-park-street',
    city: 'Kolkata',
    state: 'West Bengal',
    pincode: '700016',
    name: 'Park Street Store',
    lat: 22.5526,
    lng: 88.3525,
    street: '1st floor, 22 Park Street, Park Mansions',
    phone: '+91 33 4006 7705',
    hours: 'Monday to Saturday 11:00 to 20:00, closed on Sundays',
  },
  {
    code: 'jaipur-c-scheme',
    city: 'Jaipur',
    state: 'Rajasthan',
    pincode: '302001',
    name: 'C-Scheme Boutique',
    lat: 26.9085,
    lng: 75.8035,
    street: 'B-12, Prithviraj Road, C-Scheme',
    phone: '+91 141 401 9906',
    hours: 'Monday to Saturday 10:30 to 19:30, Sunday by appointment',
  },
] as const
