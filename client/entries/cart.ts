/** Client entry for the cart page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands])
