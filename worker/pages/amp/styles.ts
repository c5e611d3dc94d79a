/**
 * The AMP pages' one stylesheet (`<style amp-custom>`): the shop's look within AMP's rules. AMP
 * allows one author stylesheet of at most 75,000 bytes, no `!important`, no selectors on AMP's own
 * `i-amphtml-` classes and no author JavaScript, so everything here is plain CSS: the shop's colour
 * tokens and type (Inter for text, Cormorant Garamond for the store name and headings, where the reader
 * has them, else the shop's system fallbacks: the shop's hashed font files are not linked from AMP), the header bar with the store name and a link back to the full page, the
 * product summary beside the gallery from 768 px, the size chips, the primary button, the tile grid
 * and the footer columns; a CMS page's text column, its pictures and tables.
 */
import { AMP_CATEGORY_COLUMNS } from '@shared/config/catalog'

/** The shop's colour tokens (client/styles/base.css :root), written as values: AMP pages load no shop CSS. */
const INK = '#1d1a17'
const MUTED = '#6b645d'
const LINE = '#e6e0d8'
const BG = '#fffdf9'
const ACCENT = '#8c2f39'
const SALE = '#b3261e'
const OK = '#2e6b3f'
const FONT = `Inter,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif`
const FONT_DISPLAY = `'Cormorant Garamond',Georgia,'Times New Roman',serif`

export const AMP_CSS = `body{font-family:${FONT};color:${INK};background:${BG};margin:0;line-height:1.5}
a{color:inherit}
a:focus-visible{outline:2px solid ${ACCENT};outline-offset:2px}
.amp-header{border-bottom:1px solid ${LINE};background:${BG}}
.amp-header__bar{display:flex;align-items:center;justify-content:space-between;gap:16px;max-width:1280px;margin:0 auto;padding:0 16px;min-height:64px}
.amp-header__logo{font-family:${FONT_DISPLAY};font-size:1.4rem;line-height:1.25;letter-spacing:.04em;text-decoration:none;white-space:nowrap}
.amp-header__full{font-size:.9rem;color:${MUTED};display:inline-flex;align-items:center;min-height:44px}
main{padding:16px;max-width:1280px;margin:0 auto}
h1,h2{font-family:${FONT_DISPLAY};font-weight:500;line-height:1.2}
h1{font-size:2rem;margin:8px 0}
h2{font-size:1.4rem;margin:24px 0 8px}
.crumbs{font-size:.85rem;color:${MUTED};margin:0 0 12px;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:6px}
.crumbs li+li:before{content:'/';margin-right:6px}
.product{display:grid;gap:24px}
@media (min-width:768px){.product{grid-template-columns:minmax(0,1fr) minmax(0,1fr);align-items:start}}
.gallery{background:#f4efe8;border-radius:6px;overflow:hidden}
.sku{color:${MUTED};font-size:.85rem;margin:0}
.price{font-size:1.35rem;font-weight:600;margin:12px 0 0}
.price del{color:${MUTED};font-weight:400;margin-left:8px;font-size:1rem}
.price .sale{color:${SALE}}
.note{color:${MUTED};font-size:.85rem;margin:2px 0 12px}
.error{color:${SALE}}
.in-stock{color:${OK};margin:4px 0}
.sizes-title{font-size:.95rem;font-weight:600;margin:16px 0 8px;font-family:${FONT}}
.sizes{list-style:none;margin:0 0 8px;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.sizes a,.sizes span{display:inline-flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;padding:0 12px;border:1px solid ${LINE};border-radius:6px;text-decoration:none;background:#fff}
.sizes a:hover{border-color:${INK}}
.sizes .sold-out{color:${MUTED};text-decoration:line-through}
.actions{display:flex;flex-direction:column;gap:8px;margin:16px 0;max-width:420px}
.btn{display:flex;align-items:center;justify-content:center;min-height:48px;padding:0 20px;border:1px solid ${INK};border-radius:6px;background:${INK};color:#fff;text-decoration:none;font-weight:600}
.btn:hover{background:${ACCENT};border-color:${ACCENT}}
.btn--secondary{background:transparent;color:${INK};font-weight:400}
.btn--secondary:hover{background:transparent;border-color:${ACCENT};color:${ACCENT}}
.details{margin:0}
.details div{display:flex;gap:16px;padding:6px 0;border-bottom:1px solid ${LINE}}
.details dt{color:${MUTED};min-width:8rem}
.details dd{margin:0}
.options{padding-left:18px}
.options li{margin:4px 0}
.count{color:${MUTED};margin:0 0 16px}
.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:24px 16px;list-style:none;padding:0;margin:0}
@media (min-width:768px){.grid{grid-template-columns:repeat(${AMP_CATEGORY_COLUMNS},minmax(0,1fr))}}
.tile a{text-decoration:none;display:block}
.tile__name{margin:8px 0 2px;font-size:.95rem}
.tile__price{margin:0;font-weight:600}
.tile__price del{color:${MUTED};font-weight:400}
.tile__price .sale{color:${SALE}}
.footer{border-top:1px solid ${LINE};margin-top:48px;padding:32px 16px;color:${MUTED};font-size:.9rem}
.footer__inner{max-width:1280px;margin:0 auto;display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:24px 32px}
.footer__title{margin:0 0 8px;font-size:1.15rem;color:${INK}}
.footer ul{list-style:none;margin:0;padding:0}
.footer a{text-decoration:none;display:inline-flex;align-items:center;min-height:32px}
.footer a:hover{color:${INK};text-decoration:underline}
.footer__legal{max-width:1280px;margin:24px auto 0}
.cms{max-width:760px;margin:0 auto}
.cms__body{overflow-wrap:anywhere}
.cms__body amp-img{max-width:100%;margin:16px 0}
.cms-img img{object-fit:contain}
.cms__body table{border-collapse:collapse;display:block;overflow-x:auto}
.cms__body td,.cms__body th{border:1px solid ${LINE};padding:6px 10px}`
