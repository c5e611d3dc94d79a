/** The option tables of bundle and grouped products and a grouped product's lines, loaded only on those products' pages. */
export { BundleOptions } from './bundle-options'
export { GroupedLinks, groupedCartLines } from './grouped-links'
