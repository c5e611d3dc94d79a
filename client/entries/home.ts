/** Client entry for the home page(s). */
import { hydrateIslands } from '../entry'
import { startLazyImages } from '../islands/category/lazy-images'
import { CarouselIsland } from '../islands/home/carousel'
import { NewsletterIsland } from '../islands/home/newsletter'
import { HomeExtrasIsland } from '../islands/home/popups'
import { layoutIslands } from '../islands/layout-islands'

hydrateIslands([...layoutIslands, CarouselIsland, NewsletterIsland, HomeExtrasIsland])
setTimeout(() => startLazyImages(), 0)
