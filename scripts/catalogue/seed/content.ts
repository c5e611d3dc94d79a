/**
 * Singleton content documents: the home page (sections, banners, popups), the common config, the
 * outfit of the week, the size guides and the search suggestions.
 */
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_PHONE } from '../../../shared/config/content'
import type { Product } from '../../../shared/schemas/catalog'

/** A configurable the content documents may name: enabled and visible in catalogue and search. */
const isListedConfigurable = (p: Product) =>
  p.status === 1 && p.visibility === 4 && p.type_id === 'configurable'

/** The curated lists: the first `n` listed configurables that pass `test`, in catalogue order. */
const PICKS = {
  newIn: { n: 8, test: (p: Product) => p.new === '1' },
  bestsellers: { n: 8, test: (p: Product) => p.product_tag === 'Bestseller' },
  otw: { n: 4, test: (p: Product) => p.category_ids.includes(10) || p.category_ids.includes(30) },
} as const

/**
 * Keeps, of products offered one by one in catalogue order, only those the content documents can
 * name (the first listed configurable and the first `n` of each curated list), so building the
 * content from `chosen` gives what building it from the whole catalogue gives.
 */
export function contentPicker() {
  const chosen: Product[] = []
  const taken = new Map<keyof typeof PICKS, number>()
  return {
    chosen,
    offer(p: Product) {
      if (!isListedConfigurable(p)) return
      let keep = chosen.length === 0
      for (const [key, pick] of Object.entries(PICKS) as Array<[keyof typeof PICKS, (typeof PICKS)['otw']]>) {
        const n = taken.get(key) ?? 0
        if (n < pick.n && pick.test(p)) {
          taken.set(key, n + 1)
          keep = true
        }
      }
      if (keep) chosen.push(p)
    },
  }
}

/** The home, common-config and otw documents; curated SKUs come from the listed configurables. */
export function buildContent(products: Product[]) {
  const listed = products.filter(isListedConfigurable)
  const skusOf = (pick: (typeof PICKS)[keyof typeof PICKS]) =>
    listed
      .filter(pick.test)
      .slice(0, pick.n)
      .map((p) => p.sku)
  const home = {
    sections: [
      { id: 1, type: 'banner', title: 'The Festive Edit', position: 1 },
      {
        id: 2,
        type: 'category_products',
        title: 'Performance Fabrics',
        category_id: 189,
        category_name: 'Performance Fabrics',
        position: 2,
      },
      {
        id: 3,
        type: 'category_products',
        title: 'Tees',
        category_id: 190,
        category_name: 'Tees',
        position: 3,
      },
      { id: 4, type: 'products', title: 'New In', skus: skusOf(PICKS.newIn), position: 4 },
      {
        id: 5,
        type: 'products',
        title: 'Bestsellers',
        skus: skusOf(PICKS.bestsellers),
        position: 5,
      },
      { id: 6, type: 'cms_block', title: 'Our story', block_identifier: 'home-intro', position: 6 },
    ],
    banners: {
      main: [
        {
          id: 1,
          title: 'The Festive Edit',
          image: '/b/home-festive-edit.svg',
          mobile_image: '/b/home-festive-edit-mobile.svg',
          link: '/women/sarees',
        },
        {
          id: 2,
          title: 'Bridal Lehengas',
          image: '/b/home-bridal-lehengas.svg',
          mobile_image: '/b/home-bridal-lehengas-mobile.svg',
          link: '/women/lehengas',
        },
        {
          id: 3,
          title: 'Menswear Sherwanis',
          image: '/b/home-sherwanis.svg',
          mobile_image: '/b/home-sherwanis-mobile.svg',
          link: '/men/sherwanis',
        },
      ],
      small: [
        { id: 4, title: 'Kurtas under ₹5,000', image: '/b/home-kurtas.svg', link: '/women/kurtas' },
        { id: 5, title: 'Ready to Ship', image: '/b/home-ready-to-ship.svg', link: '/new-in' },
        { id: 6, title: 'Sale', image: '/b/home-sale.svg', link: '/sale' },
      ],
      product: [
        {
          id: 7,
          title: "Editor's pick",
          image: '/b/home-editors-pick.svg',
          sku: listed[0]?.sku ?? null,
          link: listed[0] ? `/${listed[0].url_path}` : '/',
        },
      ],
    },
    head_image: {
      image: '/b/head-festive.svg',
      mobile_image: '/b/head-festive-mobile.svg',
      title: 'Celebrate in colour',
      link: '/new-in',
    },
    popups: [
      {
        id: 1,
        type: 'strip',
        text: 'Free shipping in India on orders above ₹2,999',
        link: '/i/shipping-and-returns',
        active: true,
      },
      {
        id: 2,
        type: 'exit_popup',
        title: 'Before you go…',
        text: 'Get 10% off your first order with code WELCOME10.',
        image: '/b/popup-welcome.svg',
        active: true,
      },
      {
        id: 3,
        type: 'generic_popup',
        title: 'Visit our stores',
        text: 'Six stores across India. Book a styling appointment.',
        link: '/store-locator',
        image: '/b/popup-stores.svg',
        active: true,
      },
    ],
  }
  const commonConfig = {
    support_email: SUPPORT_EMAIL,
    support_phone: SUPPORT_PHONE,
    support_hours: SUPPORT_HOURS,
    free_shipping_threshold: 2999,
    currency_default: 'INR',
    whatsapp_number: SUPPORT_PHONE.replace(/\s+/g, ''),
    social: { instagram: 'https://instagram.com/odeatelier', facebook: 'https://facebook.com/odeatelier' },
    announcement: 'Complimentary gift wrap on all orders this festive season.',
  }
  const otw = {
    title: 'Outfit of the Week',
    description: 'Our stylists pick one look every week.',
    skus: skusOf(PICKS.otw),
    image: '/b/otw-look.svg',
  }
  return { home, 'common-config': commonConfig, otw }
}

/** Search suggestions: the default ones and those for 'saree'. */
export function buildSearchContent() {
  return [
    {
      term: '',
      doc: {
        term: '',
        popular_searches: ['saree', 'lehenga', 'kurta', 'sherwani', 'jhumka'],
        trending_categories: [
          { id: 10, name: 'Sarees', url: '/women/sarees' },
          { id: 11, name: 'Lehengas', url: '/women/lehengas' },
          { id: 21, name: 'Sherwanis', url: '/men/sherwanis' },
        ],
        banner: { image: '/b/search-festive.svg', link: '/new-in', title: 'The Festive Edit' },
      },
    },
    {
      term: 'saree',
      doc: {
        term: 'saree',
        popular_searches: ['banarasi saree', 'kanjeevaram saree', 'organza saree'],
        trending_categories: [{ id: 10, name: 'Sarees', url: '/women/sarees' }],
        banner: { image: '/b/search-sarees.svg', link: '/women/sarees', title: 'Sarees' },
      },
    },
  ]
}
