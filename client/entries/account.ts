/** Client entry for the account page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands])
