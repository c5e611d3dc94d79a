/** Client entry for the checkout page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands])
