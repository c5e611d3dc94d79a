/** Client entry for the home page(s): layout islands plus small enhancers of server markup. */
import { hydrateIslands } from '../entry'
import { startLazyImages } from '../islands/category/lazy-images'
import { enhanceCarousels } from '../islands/home/carousel'
import { enhanceHome } from '../islands/home/home-enhance'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands])
enhanceCarousels()
enhanceHome()
setTimeout(() => startLazyImages(), 0)
