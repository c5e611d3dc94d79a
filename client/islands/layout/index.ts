/** Islands of the default layout, present on every default-layout page. */
import { AuthModalIsland } from '../auth/auth-modal'
import { WishlistPanelIsland } from '../lists/wishlist-panel'
import { HeaderIsland } from './header'
import { MicrocartIsland } from './microcart'
import { NotificationsIsland } from './notifications'

export const layoutIslands = [
  HeaderIsland,
  NotificationsIsland,
  MicrocartIsland,
  AuthModalIsland,
  WishlistPanelIsland,
]
