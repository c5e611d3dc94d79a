/**
 * AMP pages: minimal layout, valid AMP HTML with no author JavaScript, canonical and JSON-LD
 * URLs on the public origin:
 *   GET /amp/p/:parentSku/:slug/:childSku?   product: slide gallery, name, sku, price (special
 *        with the original struck through, × qty), variant errors, grouped links, bundle or custom
 *        options, 'Check available sizes' link, 'Product details' (description + attributes, 'N/A')
 *   GET /amp/c/:slug                         category: breadcrumbs, name, item count, 4-column grid
 *        sorted updated_at desc, the spec's empty state
 */
import { HTTPException } from 'hono/http-exception'
import { AMP_CATEGORY_COLUMNS, DEFAULT_CATEGORY_NAME, ROOT_CATEGORY_ID } from '../../../shared/config/catalog'
import { IMAGE_SIZES } from '../../../shared/config/images'
import { categoryPath, productPath } from '../../../shared/config/routes'
import {
  isProductInStock,
  isTileVisible,
  productRejection,
  variantsError,
} from '../../../shared/domain/availability'
import { imageUrl } from '../../../shared/domain/image-url'
import { priceView } from '../../../shared/domain/price'
import { MSG } from '../../../shared/i18n/messages'
import type { Attribute, Category, Product } from '../../../shared/schemas/catalog'
import { getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import { renderAmpPage } from '../../platform/render/amp'
import { breadcrumbJsonLd, type Crumb, htmlToText, productJsonLd } from '../../platform/render/seo'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const AMP_CSS = `body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1d1a17;background:#fffdf9;margin:0;line-height:1.5}
header.amp-header{padding:12px 16px;border-bottom:1px solid #e6e0d8;text-align:center}
header.amp-header a{font-family:Georgia,serif;font-size:1.3rem;text-decoration:none;color:inherit}
main{padding:16px;max-width:1080px;margin:0 auto}
h1{font-family:Georgia,serif;font-weight:500;font-size:1.6rem;margin:8px 0}
.crumbs{font-size:.85rem;color:#6b645d;margin:0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:6px}
.crumbs li+li:before{content:'/';margin-right:6px}
.crumbs a{color:inherit}
.sku{color:#6b645d;font-size:.85rem}
.price{font-size:1.25rem;margin:8px 0}
.price del{color:#6b645d;margin-left:8px;font-size:1rem}
.price .sale{color:#b3261e}
.error{color:#b3261e}
.cta{display:inline-block;background:#1d1a17;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;margin:12px 0}
.details dt{font-weight:600}
.details dd{margin:0 0 8px 0}
.grid{display:grid;grid-template-columns:repeat(2,1fr);gap:16px;list-style:none;padding:0}
@media (min-width:768px){.grid{grid-template-columns:repeat(${AMP_CATEGORY_COLUMNS},1fr)}}
.tile a{text-decoration:none;color:inherit}
.tile p{margin:4px 0}
.count{color:#6b645d}
.options li{margin:4px 0}`

function Header({ storeName }: { storeName: string }) {
  return (
    <header className="amp-header">
      <a href="/">{storeName}</a>
    </header>
  )
}

function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="crumbs">
        {crumbs.map((c) => (
          <li key={`${c.label}-${c.href}`}>{c.href ? <a href={c.href}>{c.label}</a> : c.label}</li>
        ))}
      </ol>
    </nav>
  )
}

function flatten(tree: Category[]): Category[] {
  return tree.flatMap((c) => [c, ...flatten(c.children_data ?? [])])
}

/** Breadcrumbs from a category's path ids: 'Default Category' shown as 'Home' → /, the last one plain. */
function categoryCrumbs(category: Category, all: Category[]): Crumb[] {
  const byId = new Map(all.map((c) => [c.id, c]))
  const ids = category.path
    .split('/')
    .map(Number)
    .filter((id) => id && id !== 1)
  const crumbs: Crumb[] = [{ label: 'Home', href: '/' }]
  for (const id of ids) {
    if (id === ROOT_CATEGORY_ID || id === category.id) continue
    const cat = byId.get(id)
    if (cat && cat.name !== DEFAULT_CATEGORY_NAME)
      crumbs.push({ label: cat.name, href: `/amp/c/${encodeURIComponent(cat.slug)}` })
  }
  crumbs.push({ label: category.name, href: null })
  return crumbs
}

function descendantIds(category: Category): number[] {
  return [category.id, ...flatten(category.children_data ?? []).map((c) => c.id)]
}

/** Label(s) of a product's attribute value: select options joined by commas, 'N/A' when empty. */
function attributeValue(product: Product, attr: Attribute): string {
  const raw = (product as Record<string, unknown>)[attr.attribute_code]
  if (raw === null || raw === undefined || raw === '') return MSG.notAvailablePlaceholder
  const values = Array.isArray(raw) ? raw : String(raw).split(',')
  if (attr.frontend_input === 'select' || attr.frontend_input === 'multiselect') {
    const labels = values
      .map((v) => attr.options.find((o) => String(o.value) === String(v))?.label)
      .filter((l): l is string => !!l)
    return labels.length ? labels.join(', ') : MSG.notAvailablePlaceholder
  }
  return values.map(String).join(', ')
}

const DETAIL_ATTRIBUTES = ['designer', 'color', 'size', 'gender', 'material', 'fabric', 'occasion', 'care']

const ampProductPage: RouteHandler<'amp-product'> = async (c) => {
  const { parentSku, childSku } = c.req.param()
  const commerce = getCommerce(c)
  const found = await commerce.getProduct({ parentSku, childSku: childSku ?? null })
  if (!found) throw new HTTPException(404, { message: MSG.productQueryEmpty })
  const { product, child } = found
  const rejection = productRejection(product)
  if (rejection) throw new HTTPException(404, { message: rejection })
  const [taxRules, attributes] = await Promise.all([commerce.getTaxRules(), commerce.getAttributes()])
  const { currency, country } = c.var.store
  const qty = Math.min(99, Math.max(1, Number.parseInt(c.req.query('qty') ?? '1', 10) || 1))
  const now = Date.now()
  const price = priceView(product, { now, currency, taxRules, country, variantSku: child?.sku ?? null, qty })
  const origin = c.var.config.PUBLIC_ORIGIN
  const canonical = origin + productPath(product.sku, product.slug, child?.sku)
  const inStock = child ? child.stock.is_in_stock : isProductInStock(product)
  const variantError = variantsError(product, { listOutOfStock: true })
  const size = IMAGE_SIZES.ampGallery
  const images = [
    ...(child?.image ? [child.image] : []),
    ...product.media_gallery.map((m) => m.image),
    ...(product.image ? [product.image] : []),
  ].filter((v, i, a) => v && a.indexOf(v) === i)
  const categories = await commerce.getCategoryTree().catch(() => {
    markDegraded(c)
    return [] as Category[]
  })
  const all = flatten(categories)
  const firstCat = product.category_ids.map((id) => all.find((cat) => cat.id === id)).find(Boolean)
  const crumbs: Crumb[] = firstCat
    ? [
        ...categoryCrumbs(firstCat, all).slice(0, -1),
        { label: firstCat.name, href: `/amp/c/${encodeURIComponent(firstCat.slug)}` },
        { label: product.name, href: null },
      ]
    : [
        { label: 'Home', href: '/' },
        { label: product.name, href: null },
      ]
  const details = attributes
    .filter((a) => DETAIL_ATTRIBUTES.includes(a.attribute_code) && a.is_visible_on_front)
    .map((a) => ({
      label: a.frontend_label || a.default_frontend_label,
      value: attributeValue(child ? ({ ...product, ...child } as Product) : product, a),
    }))
  const description = htmlToText(product.description)

  const body = (
    <>
      <Header storeName={c.var.config.STORE_NAME} />
      <main>
        <Breadcrumbs crumbs={crumbs} />
        {images.length > 1 ? (
          <amp-carousel
            type="slides"
            width={size.width}
            height={size.height}
            layout="responsive"
            role="region"
            aria-label="Gallery"
          >
            {images.map((img) => (
              <amp-img
                key={img}
                src={imageUrl(img, size.width, size.height)}
                width={size.width}
                height={size.height}
                layout="responsive"
                alt={product.name}
              />
            ))}
          </amp-carousel>
        ) : (
          <amp-img
            src={imageUrl(images[0] ?? null, size.width, size.height)}
            width={size.width}
            height={size.height}
            layout="responsive"
            alt={product.name}
          />
        )}
        <h1>{product.name}</h1>
        <p className="sku">SKU: {child?.sku ?? product.sku}</p>
        <p className="price">
          {price.formatted.special ? (
            <>
              <span className="sale">{price.formatted.special}</span>
              <del>{price.formatted.regular}</del>
            </>
          ) : (
            <span>{price.formatted.final}</span>
          )}
          {qty > 1 ? <span className="count"> for {qty}</span> : null}
        </p>
        {!inStock ? <p className="error">{MSG.outOfStockBadge}</p> : null}
        {variantError ? <p className="error">{variantError}</p> : null}
        {product.type_id === 'grouped' && product.product_links.length ? (
          <ul className="options">
            {product.product_links.map((l) => (
              <li key={l.linked_product_sku}>
                {l.product?.name ?? l.linked_product_sku}
                {l.product
                  ? ` — ${priceView({ ...l.product, type_id: 'simple' }, { now, currency, taxRules, country }).formatted.final}`
                  : ''}
              </li>
            ))}
          </ul>
        ) : null}
        {product.bundle_options.length ? (
          <ul className="options">
            {product.bundle_options.map((o) => (
              <li key={o.option_id}>
                <strong>{o.title}</strong>: {o.product_links.map((l) => l.product?.name ?? l.sku).join(', ')}
              </li>
            ))}
          </ul>
        ) : null}
        {product.custom_options.length ? (
          <ul className="options">
            {product.custom_options.map((o) => (
              <li key={o.option_id}>
                <strong>{o.title}</strong>
                {o.values.length ? `: ${o.values.map((v) => v.title).join(', ')}` : ''}
              </li>
            ))}
          </ul>
        ) : null}
        <a className="cta" href={productPath(product.sku, product.slug, child?.sku)}>
          {MSG.checkAvailableSizes}
        </a>
        <section>
          <h2>{MSG.productDetails}</h2>
          <p>{description || MSG.notAvailablePlaceholder}</p>
          <dl className="details">
            {details.map((d) => (
              <div key={d.label}>
                <dt>{d.label}</dt>
                <dd>{d.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </main>
    </>
  )
  c.set('cacheTags', ['product', `P${product.sku}`])
  return renderAmpPage(c, {
    title: product.meta_title || product.name,
    canonical,
    description: product.meta_description ?? undefined,
    extensions: images.length > 1 ? ['amp-carousel'] : [],
    css: AMP_CSS,
    body,
    jsonLd: [
      productJsonLd({
        name: product.name,
        sku: child?.sku ?? product.sku,
        description,
        image: images[0] ? new URL(imageUrl(images[0], size.width, size.height), origin).href : null,
        url: canonical,
        brand: product.designer_name,
        priceInBase: price.finalInclTax,
        currency,
        inStock,
      }),
      breadcrumbJsonLd(crumbs, origin, canonical),
    ],
  })
}

const ampCategoryPage: RouteHandler<'amp-category'> = async (c) => {
  const slug = c.req.param('slug')
  const commerce = getCommerce(c)
  const category = await commerce.getCategoryBySlug(slug)
  if (!category?.is_active)
    throw new HTTPException(404, { message: `Category query returned empty result slug = ${slug}` })
  const [tree, taxRules, listing] = await Promise.all([
    commerce.getCategoryTree(),
    commerce.getTaxRules(),
    commerce.searchProducts({
      categoryIds: descendantIds(category),
      sort: { field: 'updated_at', order: 'desc' },
      size: 48,
    }),
  ])
  const { currency, country } = c.var.store
  const now = Date.now()
  const items = listing.items.filter((p) => isTileVisible(p, currency))
  const crumbs = categoryCrumbs(category, flatten(tree))
  const tile = IMAGE_SIZES.ampTile
  const origin = c.var.config.PUBLIC_ORIGIN
  const body = (
    <>
      <Header storeName={c.var.config.STORE_NAME} />
      <main>
        <Breadcrumbs crumbs={crumbs} />
        <h1>{category.name}</h1>
        <p className="count">{`${listing.total} items`}</p>
        {items.length === 0 ? (
          <section>
            <h2>{MSG.noProductsFoundTitle}</h2>
            <p>{MSG.noProductsFoundText}</p>
          </section>
        ) : (
          <ul className="grid">
            {items.map((p) => {
              const pv = priceView(p, { now, currency, taxRules, country })
              return (
                <li className="tile" key={p.sku}>
                  <a href={`/amp/p/${encodeURIComponent(p.sku)}/${encodeURIComponent(p.slug)}`}>
                    <amp-img
                      src={imageUrl(p.image ?? null, tile.width, tile.height)}
                      width={tile.width}
                      height={tile.height}
                      layout="responsive"
                      alt={p.name}
                    />
                    <p>{p.name}</p>
                    <p>
                      {pv.formatted.special ? (
                        <>
                          <span className="sale">{pv.formatted.special}</span>{' '}
                          <del>{pv.formatted.regular}</del>
                        </>
                      ) : (
                        pv.formatted.final
                      )}
                    </p>
                  </a>
                </li>
              )
            })}
          </ul>
        )}
      </main>
    </>
  )
  c.set('cacheTags', ['category', `C${category.id}`])
  const canonical = origin + categoryPath(category.slug)
  return renderAmpPage(c, {
    title: category.meta_title || category.name,
    canonical,
    description: category.meta_description ?? undefined,
    css: AMP_CSS,
    body,
    jsonLd: [breadcrumbJsonLd(crumbs, origin, canonical)],
  })
}

export const ampPages = {
  'amp-product': ampProductPage,
  'amp-category': ampCategoryPage,
} satisfies RouteHandlers
