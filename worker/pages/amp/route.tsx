/**
 * AMP pages in the shop's look (header with the store name and a link back to the full page,
 * footer; styles: ./styles.ts, pieces: ./parts.tsx), valid AMP HTML with no author JavaScript,
 * canonical and JSON-LD URLs on the public origin (data: ./loader.ts):
 *   GET /amp/p/:parentSku/:slug/:childSku?   product: slide gallery beside the summary, name, sku,
 *        price by the shop's formatter (special with the original struck through, × qty), the tax
 *        note, stock, variant errors, the size list, 'Buy on the shop' and 'Check available
 *        sizes' to the full page, grouped links, bundle or custom options, 'Product details'
 *        (description + attributes, 'N/A')
 *   GET /amp/c/:slug                         category: breadcrumbs, name, item count, 4-column grid
 *        sorted updated_at desc, the empty-listing message
 *   GET /amp/i/:slug                         CMS page: title and content made valid AMP (./cms-html.ts);
 *        a missing or inactive page is the shop's 404 page
 */
import { IMAGE_SIZES } from '@shared/config/images'
import { ampProductPath, categoryPath, productPath } from '@shared/config/links'
import { imageUrl } from '@shared/domain/image-url'
import { priceView } from '@shared/domain/price'
import { MSG, PAGE_TEXT } from '@shared/i18n/messages'
import { renderAmpPage } from '../../platform/render/amp'
import { breadcrumbJsonLd, productJsonLd } from '../../platform/render/seo'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { loadCmsPage } from '../content/loader'
import { cmsPagePath } from '../content/paths'
import { renderNotFound } from '../system/route'
import { ampCmsHtml } from './cms-html'
import { loadAmpCategory, loadAmpProduct } from './loader'
import { AmpFooter, AmpHeader, Breadcrumbs, BUY_LABEL, SizeList } from './parts'
import { AMP_CSS } from './styles'

const ampProductPage: RouteHandler<'amp-product'> = async (c) => {
  const { parentSku, childSku } = c.req.param()
  const data = await loadAmpProduct(c, { parentSku, childSku, qty: c.req.query('qty') })
  if ('redirect' in data) return c.redirect(data.redirect, 301)
  const { product, child, price, qty, inStock, variantError, images, crumbs, details, description } = data
  const { now, taxRules } = data
  const { currency, country } = c.var.store
  const origin = c.var.config.PUBLIC_ORIGIN
  const size = IMAGE_SIZES.ampGallery

  const fullPage = productPath(product.sku, product.slug, child?.sku)
  const canonical = origin + fullPage

  const body = (
    <>
      <AmpHeader storeName={c.var.config.STORE_NAME} fullPage={fullPage} />
      <main>
        <Breadcrumbs crumbs={crumbs} />
        <div className="product">
          <div className="gallery">
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
          </div>
          <div className="summary">
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
            {inStock ? null : <p className="error">{MSG.outOfStockBadge}</p>}
            <SizeList product={product} now={now} />
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
                    <strong>{o.title}</strong>:{' '}
                    {o.product_links.map((l) => l.product?.name ?? l.sku).join(', ')}
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
            <div className="actions">
              <a className="btn" href={fullPage}>
                {BUY_LABEL}
              </a>
              <a className="btn btn--secondary" href={fullPage}>
                {PAGE_TEXT.checkAvailableSizes}
              </a>
            </div>
          </div>
        </div>
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
      <AmpFooter storeName={c.var.config.STORE_NAME} currency={currency} />
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
  const fullPage = categoryPath(category.slug)
  const body = (
    <>
      <AmpHeader storeName={c.var.config.STORE_NAME} fullPage={fullPage} />
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
                      alt=""
                    />
                    <p className="tile__name">{p.name}</p>
                    <p className="tile__price">
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
      <AmpFooter storeName={c.var.config.STORE_NAME} currency={currency} />
    </>
  )
  c.set('cacheTags', ['category', `C${category.id}`])
  const canonical = origin + fullPage
  return renderAmpPage(c, {
    title: category.meta_title || category.name,
    canonical,
    description: category.meta_description ?? undefined,
    css: AMP_CSS,
    body,
    jsonLd: [breadcrumbJsonLd(crumbs, origin, canonical)],
  })
}

const ampCmsPage: RouteHandler<'amp-cms-page'> = async (c) => {
  const result = await loadCmsPage(c, c.req.param('slug'))
  if (result.kind === 'not-found')
    return renderNotFound(c, { title: 'Page not found', message: result.message, entry: 'content' })
  const { page } = result
  const fullPage = cmsPagePath(page.identifier)
  c.set('cacheTags', ['cms'])
  return renderAmpPage(c, {
    title: page.metaTitle || page.title,
    canonical: c.var.config.PUBLIC_ORIGIN + fullPage,
    description: page.metaDescription ?? undefined,
    css: AMP_CSS,
    body: (
      <>
        <AmpHeader storeName={c.var.config.STORE_NAME} fullPage={fullPage} />
        <main>
          <article className="cms">
            <h1>{page.title}</h1>
            {/* Sanitized, then made AMP-valid by ampCmsHtml: the only raw HTML of an AMP page. */}
            <div className="cms__body" dangerouslySetInnerHTML={{ __html: ampCmsHtml(page.html) }} />
          </article>
        </main>
        <AmpFooter storeName={c.var.config.STORE_NAME} currency={c.var.store.currency} />
      </>
    ),
  })
}

export const ampPages = {
  'amp-product': ampProductPage,
  'amp-category': ampCategoryPage,
  'amp-cms-page': ampCmsPage,
} satisfies RouteHandlers
