/** Client entry for the content page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands])
