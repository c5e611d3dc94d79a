/**
 * Islands of the default layout, present on every default-layout page. The closed panels and
 * dialogs start when the browser is idle or at the first interaction.
 */
import { AuthModalIsland } from '../auth/auth-modal'
import { startWhenIdle } from '../define'
import { WishlistPanelIsland } from '../lists/wishlist-panel'
import { HeaderIsland } from './header'
import { MicrocartIsland } from './microcart'
import { NotificationsIsland } from './notifications'

export const layoutIslands = [
  HeaderIsland,
  NotificationsIsland,
  startWhenIdle(MicrocartIsland),
  startWhenIdle(AuthModalIsland),
  startWhenIdle(WishlistPanelIsland),
]
