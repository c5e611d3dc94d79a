/** Image sizes, width × height in px. */

export interface ImageSize {
  width: number
  height: number
}

export const IMAGE_SIZES = {
  /** "Gallery 600x744" */
  gallery: { width: 600, height: 744 },
  /** "thumbnails 310x300" */
  thumbnail: { width: 310, height: 300 },
  /** "cart thumbnails 150x150" */
  cart: { width: 150, height: 150 },
  /** "Listing 280x419" */
  listing: { width: 280, height: 419 },
  /** "thumb 400x600" */
  thumb: { width: 400, height: 600 },
  /** "detail 395x600" */
  detail: { width: 395, height: 600 },
  /** "zoom 443x710" */
  zoom: { width: 443, height: 710 },
  /** "hover zoom 800x1212" */
  hoverZoom: { width: 800, height: 1212 },
  /** "celebrity 533x800" */
  celebrity: { width: 533, height: 800 },
  /** "When an image policy applies (not on staging): 585x878." */
  policy: { width: 585, height: 878 },
  /** "Tile image 310x300." */
  tile: { width: 310, height: 300 },
  /** "AMP product image 450x500 gallery" */
  ampGallery: { width: 450, height: 500 },
  /** AMP "tile 310x300" */
  ampTile: { width: 310, height: 300 },
} as const satisfies Record<string, ImageSize>

/** "Image URLs containing no_selection are replaced by the placeholder." */
export const NO_SELECTION_MARKER = 'no_selection'
