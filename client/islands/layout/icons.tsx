/**
 * The shop's icon set: lucide icons, served once per page as an inline SVG sprite (IconSprite, in
 * the default layout) whose symbols each <Icon> references by name. The sprite holds only the icons
 * listed here, and the browser bundles carry only their names, never their drawings. An icon is
 * decoration: it is hidden from assistive technology, and the control that shows it carries the
 * accessible name.
 */
import arrowUp from 'lucide-static/dist/esm/icons/arrow-up.mjs'
import banknote from 'lucide-static/dist/esm/icons/banknote.mjs'
import camera from 'lucide-static/dist/esm/icons/camera.mjs'
import chevronDown from 'lucide-static/dist/esm/icons/chevron-down.mjs'
import chevronLeft from 'lucide-static/dist/esm/icons/chevron-left.mjs'
import chevronRight from 'lucide-static/dist/esm/icons/chevron-right.mjs'
import circlePlay from 'lucide-static/dist/esm/icons/circle-play.mjs'
import creditCard from 'lucide-static/dist/esm/icons/credit-card.mjs'
import heart from 'lucide-static/dist/esm/icons/heart.mjs'
import landmark from 'lucide-static/dist/esm/icons/landmark.mjs'
import mail from 'lucide-static/dist/esm/icons/mail.mjs'
import menu from 'lucide-static/dist/esm/icons/menu.mjs'
import messageCircle from 'lucide-static/dist/esm/icons/message-circle.mjs'
import minus from 'lucide-static/dist/esm/icons/minus.mjs'
import pin from 'lucide-static/dist/esm/icons/pin.mjs'
import play from 'lucide-static/dist/esm/icons/play.mjs'
import plus from 'lucide-static/dist/esm/icons/plus.mjs'
import rotateCcw from 'lucide-static/dist/esm/icons/rotate-ccw.mjs'
import search from 'lucide-static/dist/esm/icons/search.mjs'
import shoppingBag from 'lucide-static/dist/esm/icons/shopping-bag.mjs'
import smartphone from 'lucide-static/dist/esm/icons/smartphone.mjs'
import truck from 'lucide-static/dist/esm/icons/truck.mjs'
import userRound from 'lucide-static/dist/esm/icons/user-round.mjs'
import wallet from 'lucide-static/dist/esm/icons/wallet.mjs'
import x from 'lucide-static/dist/esm/icons/x.mjs'

const SOURCES = {
  'arrow-up': arrowUp,
  banknote,
  camera,
  'chevron-down': chevronDown,
  'chevron-left': chevronLeft,
  'chevron-right': chevronRight,
  'circle-play': circlePlay,
  'credit-card': creditCard,
  heart,
  landmark,
  mail,
  menu,
  'message-circle': messageCircle,
  minus,
  pin,
  play,
  plus,
  'rotate-ccw': rotateCcw,
  search,
  'shopping-bag': shoppingBag,
  smartphone,
  truck,
  'user-round': userRound,
  wallet,
  x,
}

export type IconName = keyof typeof SOURCES

/** The drawing inside an icon's <svg> element (its paths and shapes), whitespace between tags removed. */
export function iconBody(svg: string): string {
  const start = svg.indexOf('<svg')
  const close = svg.lastIndexOf('</svg>')
  const open = start < 0 ? -1 : svg.indexOf('>', start)
  if (open < 0 || close < open) return ''
  return svg
    .slice(open + 1, close)
    .replace(/>\s+</g, '><')
    .trim()
}

const symbolId = (name: IconName) => `icon-${name}`

/** The sprite's symbols as markup: made from the build's icons on first use, then the same for every page. */
let spriteSymbols: string | undefined

/**
 * Every icon as a <symbol>, rendered once near the top of the page (server only). The markup comes
 * from the icon package at build time, never from a request.
 */
export function IconSprite() {
  spriteSymbols ??= (Object.entries(SOURCES) as [IconName, string][])
    .map(
      ([name, svg]) =>
        `<symbol id="${symbolId(name)}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">${iconBody(svg)}</symbol>`,
    )
    .join('')
  return (
    <svg
      className="icon-sprite"
      aria-hidden="true"
      focusable="false"
      width="0"
      height="0"
      dangerouslySetInnerHTML={{ __html: spriteSymbols }}
    />
  )
}

/** An icon from the sprite, sized by the surrounding text and drawn in its colour. */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" className={className ? `icon ${className}` : 'icon'}>
      <use href={`#${symbolId(name)}`} />
    </svg>
  )
}
