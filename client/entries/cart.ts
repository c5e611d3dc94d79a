/** Client entry for the cart page. */
import { hydrateIslands } from '../entry'
import { CartPageIsland } from '../islands/cart/cart-page'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands, CartPageIsland])
