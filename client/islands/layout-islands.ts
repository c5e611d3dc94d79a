/** Islands of the default layout, present on every default-layout page. */
import { HeaderIsland } from './header'
import { NotificationsIsland } from './notifications'

export const layoutIslands = [HeaderIsland, NotificationsIsland]
