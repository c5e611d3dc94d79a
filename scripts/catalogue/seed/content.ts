/**
 * Singleton content documents: the home page (sections, banners, popups), the common config, the
 * outfit of the week, the size guides and the search suggestions.
 */
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_PHONE } from '../../../shared/config/content'
import type { Product } from '../../../shared/schemas/catalog'

/** The home, common-config and otw documents; curated SKUs come from the listed configurables. */
export function buildContent(products: Product[]) {
  const listed = products.filter((p) => p.status === 1 && p.visibility === 4 && p.type_id === 'configurable')
  const skusOf = (pred: (p: Product) => boolean, n: number) =>
    listed
      .filter(pred)
      .slice(0, n)
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
      { id: 4, type: 'products', title: 'New In', skus: skusOf((p) => p.new === '1', 8), position: 4 },
      {
        id: 5,
        type: 'products',
        title: 'Bestsellers',
        skus: skusOf((p) => p.product_tag === 'Bestseller', 8),
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
    skus: skusOf((p) => p.category_ids.includes(10) || p.category_ids.includes(30), 4),
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
