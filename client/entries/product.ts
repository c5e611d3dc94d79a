/** Client entry for the product page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands])
