/** Client entry for the category listing and the search results page. */
import { hydrateIslands } from '../entry'
import { startLazyImages } from '../islands/category/lazy-images'
import { ListingIsland } from '../islands/category/listing'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands, ListingIsland])
setTimeout(() => startLazyImages(), 0)
