/** Client entry for the checkout page. */
import { hydrateIslands } from '../entry'
import { CheckoutIsland } from '../islands/checkout/checkout-page'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands, CheckoutIsland])
