/**
 * AMP pages: minimal layout, valid AMP HTML with no author JavaScript, canonical and JSON-LD
 * URLs on the public origin (data: ./loader.ts):
 *   GET /amp/p/:parentSku/:slug/:childSku?   product: slide gallery, name, sku, price (special
 *        with the original struck through, × qty), variant errors, grouped links, bundle or custom
 *        options, 'Check available sizes' link, 'Product details' (description + attributes, 'N/A')
 *   GET /amp/c/:slug                         category: breadcrumbs, name, item count, 4-column grid
 *        sorted updated_at desc, the empty-listing message
 */
import { AMP_CATEGORY_COLUMNS } from '@shared/config/catalog'
import { IMAGE_SIZES } from '@shared/config/images'
import { ampProductPath, categoryPath, productPath } from '@shared/config/links'
import { imageUrl } from '@shared/domain/image-url'
import type { Breadcrumb } from '@shared/domain/menu'
import { priceView } from '@shared/domain/price'
import { MSG, PAGE_TEXT } from '@shared/i18n/messages'
import { renderAmpPage } from '../../platform/render/amp'
import { breadcrumbJsonLd, productJsonLd } from '../../platform/render/seo'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { loadAmpCategory, loadAmpProduct } from './loader'

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

function Breadcrumbs({ crumbs }: { crumbs: readonly Breadcrumb[] }) {
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

const ampProductPage: RouteHandler<'amp-product'> = async (c) => {
  const { parentSku, childSku } = c.req.param()
  const data = await loadAmpProduct(c, { parentSku, childSku, qty: c.req.query('qty') })
  const { product, child, price, qty, inStock, variantError, images, crumbs, details, description } = data
  const { now, taxRules } = data
  const { currency, country } = c.var.store
  const origin = c.var.config.PUBLIC_ORIGIN
  const canonical = origin + productPath(product.sku, product.slug, child?.sku)
  const size = IMAGE_SIZES.ampGallery

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
        <p className="note">{price.note}</p>
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
          {PAGE_TEXT.checkAvailableSizes}
        </a>
        <section>
          <h2>{PAGE_TEXT.productDetails}</h2>
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
  const { category, crumbs, items, total, taxRules, now } = await loadAmpCategory(c, c.req.param('slug'))
  const { currency, country } = c.var.store
  const tile = IMAGE_SIZES.ampTile
  const origin = c.var.config.PUBLIC_ORIGIN
  const body = (
    <>
      <Header storeName={c.var.config.STORE_NAME} />
      <main>
        <Breadcrumbs crumbs={crumbs} />
        <h1>{category.name}</h1>
        <p className="count">{`${total} items`}</p>
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
                  <a href={ampProductPath(p.sku, p.slug)}>
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
