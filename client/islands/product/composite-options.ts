/** The option tables of bundle and grouped products, loaded only on those products' pages. */
export { BundleOptions } from './bundle-options'
export { GroupedLinks } from './grouped-links'
