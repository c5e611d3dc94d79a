/** Client entry for the default page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands])
