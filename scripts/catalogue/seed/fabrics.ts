/**
 * What each garment is made of: the fabric names the generator picks for a garment (data.ts lists
 * them per garment) mapped to the material, the craft, the care and the textile the image route
 * draws. A product's name, description, `fabric`, `care` and images all come from one entry, so
 * they cannot contradict each other.
 */
import type { Textile } from '../../../worker/pages/images/palette'

export interface FabricSpec {
  /** The material as a label would print it on the composition tag. */
  material: string
  /** One sentence on how it is made. */
  craft: string
  /** Care instructions. */
  care: string
  /** The surface the image route draws (worker/pages/images/art/textiles.ts). */
  textile: Textile
}

const DRY_CLEAN_SILK =
  'Dry clean only. Store folded in the muslin bag it comes in, away from damp and direct sunlight; refold along new lines every few months so the zari does not crack.'
const DRY_CLEAN = 'Dry clean only. Store on a padded hanger inside a breathable cover.'
const HAND_WASH =
  'Hand wash cold and separately with a mild detergent; dry in shade; iron on the reverse while slightly damp.'
const MACHINE_GENTLE = 'Machine wash cold on a gentle cycle, inside out; line dry; warm iron.'
const MACHINE = 'Machine wash at 30 °C with similar colours; tumble dry low; do not iron the print.'

/** Every fabric name a garment can be made of (keys are the names in data.ts). */
export const FABRICS: Readonly<Record<string, FabricSpec>> = {
  'Banarasi Silk': {
    material: 'Pure katan silk with real zari (silver thread, gold polished)',
    craft: 'Handwoven on a pit loom in Varanasi over about three weeks, the buttas brocaded in zari.',
    care: DRY_CLEAN_SILK,
    textile: 'zari',
  },
  Chanderi: {
    material: 'Silk-cotton Chanderi (60% silk, 40% cotton)',
    craft: 'Woven in Chanderi, Madhya Pradesh, with tiny gold coin buttas and a narrow zari border.',
    care: DRY_CLEAN,
    textile: 'zari',
  },
  Kanjeevaram: {
    material: 'Pure mulberry silk with a contrast zari border and pallu',
    craft:
      'Woven in Kanchipuram: body, border and pallu are woven separately and interlocked by hand (korvai).',
    care: DRY_CLEAN_SILK,
    textile: 'zari',
  },
  Organza: {
    material: 'Silk organza with a satin-piped edge',
    craft: 'Hand-painted florals on a translucent silk organza, finished with a scalloped edge.',
    care: DRY_CLEAN,
    textile: 'block',
  },
  Georgette: {
    material: 'Viscose georgette',
    craft: 'Tied and dyed by hand in Bhuj: thousands of tiny knots make the bandhani dots.',
    care: DRY_CLEAN,
    textile: 'bandhani',
  },
  Linen: {
    material: '100% linen, 60 lea yarn',
    craft: 'A slub handloom linen, softened with an enzyme wash so it drapes from the first wear.',
    care: HAND_WASH,
    textile: 'plain',
  },
  Velvet: {
    material: 'Silk velvet (18% silk, 82% viscose) lined in cotton',
    craft: 'Hand-embroidered in zardozi with dabka, nakshi and sequins along the hem.',
    care: DRY_CLEAN_SILK,
    textile: 'zari',
  },
  'Raw Silk': {
    material: 'Raw silk (dupion) lined in cotton',
    craft: 'A raw silk with a natural slub, hand-embroidered with gota patti borders.',
    care: DRY_CLEAN_SILK,
    textile: 'zari',
  },
  Net: {
    material: 'Nylon net with cotton-silk lining',
    craft: 'Scattered with hand-sewn sequins and threadwork in a chikankari-inspired trellis.',
    care: DRY_CLEAN,
    textile: 'chikankari',
  },
  Brocade: {
    material: 'Silk brocade (jacquard-woven) lined in cotton',
    craft: 'A jacquard brocade of paisley and floral jaal, woven in Varanasi.',
    care: DRY_CLEAN_SILK,
    textile: 'brocade',
  },
  Cotton: {
    material: '100% cotton cambric',
    craft: 'Hand block-printed in Bagru with natural dyes, each block carved in sheesham wood.',
    care: HAND_WASH,
    textile: 'block',
  },
  Chikankari: {
    material: 'Cotton mulmul with hand chikankari embroidery',
    craft: 'Embroidered in Lucknow in white thread: shadow work, phanda knots and jaali cut-work.',
    care: HAND_WASH,
    textile: 'chikankari',
  },
  Mulmul: {
    material: '100% cotton mulmul (100 count)',
    craft: 'A feather-light mulmul, tied and dyed in Jamnagar bandhani.',
    care: HAND_WASH,
    textile: 'bandhani',
  },
  Khadi: {
    material: 'Hand-spun, handwoven khadi cotton',
    craft: 'Spun on the charkha and woven on a handloom in West Bengal; no two metres alike.',
    care: HAND_WASH,
    textile: 'plain',
  },
  Silk: {
    material: 'Pure silk (mulberry) lined in cotton',
    craft: 'A lustrous silk with a hand-finished zari edging at neckline and cuffs.',
    care: DRY_CLEAN_SILK,
    textile: 'zari',
  },
  Crepe: {
    material: 'Polyester crepe (recycled fibres)',
    craft: 'A fluid crepe cut on the bias so it moves with you.',
    care: MACHINE_GENTLE,
    textile: 'plain',
  },
  Satin: {
    material: 'Modal satin',
    craft: 'A soft modal satin with a low sheen, finished with French seams.',
    care: DRY_CLEAN,
    textile: 'plain',
  },
  'Cotton Poplin': {
    material: '100% cotton poplin',
    craft: 'Screen-and-block printed in Jaipur with a small floral buta.',
    care: MACHINE_GENTLE,
    textile: 'block',
  },
  'Oxford Cotton': {
    material: '100% cotton Oxford weave',
    craft: 'A two-ply Oxford cloth, garment-washed for a lived-in hand.',
    care: MACHINE_GENTLE,
    textile: 'plain',
  },
  Ikat: {
    material: '100% cotton double ikat',
    craft: 'Warp and weft are tie-dyed before weaving in Pochampally, so the pattern blurs softly.',
    care: HAND_WASH,
    textile: 'ikat',
  },
  Jacquard: {
    material: 'Silk-blend jacquard (40% silk, 60% viscose) lined in cotton',
    craft: 'A tonal jacquard of small butis, with hand-finished buttons in antique brass.',
    care: DRY_CLEAN,
    textile: 'brocade',
  },
  'Nehru Linen': {
    material: '100% linen lined in cotton voile',
    craft: 'A Nehru collar jacket in handloom linen with horn buttons.',
    care: DRY_CLEAN,
    textile: 'plain',
  },
  'Bandhgala Wool': {
    material: 'Merino wool suiting (Super 120s) lined in Bemberg',
    craft: 'A bandhgala tailored in Jodhpur with a half canvas and covered buttons.',
    care: DRY_CLEAN,
    textile: 'plain',
  },
  'Quilted Cotton': {
    material: '100% cotton shell, recycled polyester wadding',
    craft: 'Hand-quilted in running stitch (kantha) in diamond channels.',
    care: HAND_WASH,
    textile: 'quilted',
  },
  Tweed: {
    material: 'Wool tweed (80% wool, 20% nylon) lined in viscose',
    craft: 'A Himalayan wool tweed woven in Kullu, with a fine herringbone.',
    care: DRY_CLEAN,
    textile: 'tweed',
  },
  'Organic Cotton': {
    material: '100% organic cotton jersey, 180 gsm',
    craft: 'Knitted in Tiruppur from GOTS-certified organic cotton.',
    care: MACHINE,
    textile: 'plain',
  },
  'Slub Cotton': {
    material: '100% slub cotton jersey, 160 gsm',
    craft: 'A slub jersey with an irregular, textured yarn, garment-dyed for depth of colour.',
    care: MACHINE,
    textile: 'plain',
  },
  Supima: {
    material: '100% Supima cotton jersey, 200 gsm',
    craft: 'An extra-long-staple cotton knitted dense and smooth; it keeps its shape wash after wash.',
    care: MACHINE,
    textile: 'plain',
  },
  'Dry-Tech Knit': {
    material: '88% recycled polyester, 12% elastane',
    craft: 'A moisture-wicking knit with flat-lock seams and four-way stretch.',
    care: MACHINE,
    textile: 'plain',
  },
  'Bamboo Knit': {
    material: '70% bamboo viscose, 30% organic cotton',
    craft: 'A soft, breathable bamboo knit with a brushed inner face.',
    care: MACHINE,
    textile: 'plain',
  },
  'Recycled Poly': {
    material: '100% recycled polyester from post-consumer bottles',
    craft: 'A lightweight ripstop with a water-repellent finish (no PFAS).',
    care: MACHINE,
    textile: 'plain',
  },
}

/**
 * Names of a collection's pieces: evocative Hindi and Urdu words and places that are not colour
 * words, so a name never promises a colour its variants do not have.
 */
export const MOTIFS = [
  'Noor',
  'Chandni',
  'Mehfil',
  'Raag',
  'Sitara',
  'Jharokha',
  'Kaveri',
  'Nilgiri',
  'Aangan',
  'Dhoop',
  'Barsaat',
  'Basant',
  'Sawan',
  'Roshni',
  'Meher',
  'Rangrez',
  'Qissa',
  'Kashi',
  'Hampi',
  'Pushkar',
  'Mandu',
  'Orchha',
  'Kutch',
  'Chettinad',
  'Malabar',
  'Deccan',
  'Awadh',
  'Riyasat',
  'Darbar',
  'Nazakat',
  'Ghazal',
  'Thumri',
  'Kajri',
  'Bahaar',
  'Mitti',
  'Safar',
  'Leher',
  'Kinara',
  'Shehnai',
  'Gulistan',
  'Inaayat',
  'Zeenat',
  'Tarana',
  'Jugni',
  'Falak',
  'Aab',
  'Bagh',
  'Amer',
] as const
