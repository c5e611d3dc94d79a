/** Client entry for the order confirmation page. */
import { hydrateIslands } from '../entry'
import { ConfirmationIsland } from '../islands/checkout/confirmation-page'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands, ConfirmationIsland])
