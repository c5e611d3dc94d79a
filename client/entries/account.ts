/** Client entry for the /my-account pages. */
import { hydrateIslands } from '../entry'
import { AccountIsland } from '../islands/account/account-page'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands, AccountIsland])
