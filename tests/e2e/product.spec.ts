import { expect, type Page, test } from '@playwright/test'
import type { FormChild, FormProduct } from '../../shared/components/product/view'
import { isChildInStock } from '../../shared/domain/availability'
import { priceView } from '../../shared/domain/price'
import type { TaxRuleFields } from '../../shared/domain/tax-rules'
import { pickProduct } from './checkout-fixtures'
import { waitForHydration } from './pages'

interface FormProps {
  product: FormProduct
  childSku: string | null
  now: number
  currency: string
  country: string
  taxRules: TaxRuleFields[]
  variantImages: Record<string, { src: string }>
}

/** The product form island's props, as the server rendered them. */
async function formProps(page: Page): Promise<FormProps> {
  const raw = await page.locator('script[data-island-props="product-form"]').textContent()
  return JSON.parse(raw ?? '{}') as FormProps
}

function expectedPrice(props: FormProps, child: FormChild): string {
  return priceView(props.product, {
    now: props.now,
    currency: props.currency,
    taxRules: props.taxRules,
    country: props.country,
    variantSku: child.sku,
  }).formatted.final
}

async function openProduct(page: Page, path: string) {
  await page.goto(path)
  await waitForHydration(page)
}

test('choosing colour then size makes price, stock, image and URL follow the variant', async ({ page }) => {
  // A sherwani whose sizes have different prices (seeded catalogue).
  await openProduct(page, '/p/SHE1025/chettinad-jacquard-sherwani-she1025')
  const props = await formProps(page)
  const enabled = props.product.configurable_children.filter((c) => c.status < 2)
  const initial = enabled.find((c) => c.sku === (props.childSku ?? '')) ?? null
  const initialColor = (
    await page.locator('[data-testid^="option-color-"][aria-pressed="true"]').getAttribute('data-testid')
  )?.replace('option-color-', '')
  // Another colour, and for it a size whose price differs from that colour's cheapest.
  const color = enabled.map((c) => c.color).find((c) => String(c) !== initialColor && c !== initial?.color)
  expect(color).toBeDefined()
  const ofColor = enabled.filter((c) => c.color === color)
  const target = [...ofColor].sort((a, b) => b.price - a.price)[0] as FormChild

  await page.getByTestId(`option-color-${color}`).click()
  await expect(page.getByTestId(`option-color-${color}`)).toHaveAttribute('aria-pressed', 'true')
  // The gallery shows the colour's image; the URL names a child of that colour.
  const colourImage = props.variantImages[ofColor[0]?.sku ?? '']?.src
  if (colourImage) await expect(page.getByTestId('gallery-main')).toHaveAttribute('src', colourImage)
  await expect(page).toHaveURL(
    new RegExp(`/p/SHE1025/chettinad-jacquard-sherwani-she1025/(${ofColor.map((c) => c.sku).join('|')})$`),
  )

  await page.getByTestId(`option-size-${target.size}`).click()
  await expect(page.getByTestId(`option-size-${target.size}`)).toHaveAttribute('aria-pressed', 'true')
  await expect(page).toHaveURL(new RegExp(`/p/SHE1025/chettinad-jacquard-sherwani-she1025/${target.sku}$`))
  await expect(page.getByTestId('variant-sku')).toHaveText(`SKU ${target.sku}`)
  await expect(page.getByTestId('price-final')).toHaveText(expectedPrice(props, target))
  if (isChildInStock(target)) {
    await expect(page.getByTestId('out-of-stock')).toHaveCount(0)
    await expect(page.getByTestId('add-to-cart')).toBeEnabled()
  } else {
    await expect(page.getByTestId('out-of-stock')).toHaveText('Out Of Stock')
    await expect(page.getByTestId('add-to-cart')).toBeDisabled()
  }
  const targetImage = props.variantImages[target.sku]?.src
  if (targetImage) await expect(page.getByTestId('gallery-main')).toHaveAttribute('src', targetImage)
})

test("a size chosen while the colour's reload is still on its way stays chosen when the reload answers", async ({
  page,
}) => {
  // The page was rendered a minute ago (as from the output cache): the first choice reloads the
  // product, and the shopper's next choice comes before that reload's answer.
  await page.clock.setFixedTime(Date.now() + 60_000)
  await openProduct(page, '/p/SHE1025/chettinad-jacquard-sherwani-she1025')
  const props = await formProps(page)
  const enabled = props.product.configurable_children.filter((c) => c.status < 2 && isChildInStock(c))
  const initialColor = (
    await page.locator('[data-testid^="option-color-"][aria-pressed="true"]').getAttribute('data-testid')
  )?.replace('option-color-', '')
  const color = enabled.map((c) => c.color).find((c) => String(c) !== initialColor)
  expect(color).toBeDefined()
  let release: () => void = () => {}
  const held = new Promise<void>((arrived) => {
    void page.route('**/api/catalog/vue_storefront_catalog/product/_search**', async (route) => {
      if (!decodeURIComponent(route.request().url()).includes(props.product.sku)) return route.continue()
      arrived()
      await new Promise<void>((r) => {
        release = r
      })
      await route.continue()
    })
  })
  await page.getByTestId(`option-color-${color}`).click()
  await held
  const afterColour = (await page.getByTestId('variant-sku').textContent())?.replace('SKU', '').trim()
  const target = enabled.find((c) => c.color === color && c.sku !== afterColour)
  expect(target).toBeDefined()
  await page.getByTestId(`option-size-${target?.size}`).click()
  await expect(page.getByTestId('variant-sku')).toHaveText(`SKU ${target?.sku}`)
  const answered = page.waitForResponse(
    (r) => r.url().includes('product/_search') && r.url().includes(props.product.sku),
  )
  release()
  await answered
  // The reload refreshes the variant chosen last, not the one that started it.
  await page.waitForTimeout(300)
  await expect(page.getByTestId('variant-sku')).toHaveText(`SKU ${target?.sku}`)
  await expect(page.getByTestId(`option-size-${target?.size}`)).toHaveAttribute('aria-pressed', 'true')
})

test('a choice with no available variant restores the previous one with the wrong-attributes notice', async ({
  page,
}) => {
  // A lehenga with a disabled child (teal XXL) whose colour and size exist in other, enabled children.
  await openProduct(page, '/p/LEH1007/qissa-net-lehenga-leh1007')
  const props = await formProps(page)
  const children = props.product.configurable_children
  const disabled = children.find(
    (d) =>
      d.status >= 2 &&
      children.some((c) => c.status < 2 && c.color === d.color) &&
      children.some((c) => c.status < 2 && c.size === d.size),
  )
  expect(disabled).toBeDefined()
  await page.getByTestId(`option-color-${disabled?.color}`).click()
  await expect(page.getByTestId(`option-color-${disabled?.color}`)).toHaveAttribute('aria-pressed', 'true')
  const before = page.url()
  const sizeButton = page.getByTestId(`option-size-${disabled?.size}`)
  await expect(sizeButton).toHaveClass(/variant-option--unavailable/)
  await sizeButton.click()
  await expect(
    page.getByText(
      'No such configuration for the product. Please do choose another combination of attributes.',
    ),
  ).toBeVisible()
  await expect(sizeButton).toHaveAttribute('aria-pressed', 'false')
  expect(page.url()).toBe(before)
  await expect(page.getByTestId('variant-sku')).not.toHaveText(`SKU ${disabled?.sku}`)
})

test("a required custom option left empty shows 'Field is required.'", async ({ page }) => {
  await openProduct(page, '/p/SAR1005/noor-linen-saree-sar1005')
  const props = await formProps(page)
  const required = props.product.custom_options.find((o) => o.is_require)
  expect(required).toBeDefined()
  // Pick a size so only the option validation can stop the add.
  const sizeButton = page.locator('[data-testid^="option-size-"]').first()
  if (await sizeButton.count()) await sizeButton.click()
  const enabled = await page.getByTestId('add-to-cart').isEnabled()
  test.skip(!enabled, 'the seeded variant is out of stock')
  await page.getByTestId('add-to-cart').click()
  const option = page.getByTestId(`custom-option-${required?.option_id}`)
  await expect(option.getByRole('alert')).toHaveText('Field is required.')
  await expect(
    page.getByText('Please configure product custom options and fix the validation errors'),
  ).toBeVisible()
  // Choosing a value clears the error.
  await option.getByRole('radio').first().check()
  await expect(option.getByRole('alert')).toHaveCount(0)
})

test("configuring a bundle: links, quantities, 'Must be greater than 0' and the price", async ({ page }) => {
  await openProduct(page, '/p/BUN2326/festive-jewellery-and-potli-bundle-bun2326')
  const props = await formProps(page)
  const [first, second] = props.product.bundle_options
  expect(first && second).toBeTruthy()
  const initialPrice = await page.getByTestId('price-final').textContent()
  // Default link preselected, else the first.
  for (const option of props.product.bundle_options) {
    const link = option.product_links.find((l) => l.is_default) ?? option.product_links[0]
    await expect(page.locator(`input[name="bundle-${option.option_id}"][value="${link?.id}"]`)).toBeChecked()
  }
  // Choose the other link of the second option: the price follows.
  const other = second?.product_links[1]
  await page.locator(`input[name="bundle-${second?.option_id}"][value="${other?.id}"]`).check()
  await expect(page.getByTestId('price-final')).not.toHaveText(initialPrice ?? '')
  const expected = priceView(props.product, {
    now: props.now,
    currency: props.currency,
    taxRules: props.taxRules,
    country: props.country,
    bundleSelection: {
      [String(first?.option_id)]: {
        linkId: (first?.product_links.find((l) => l.is_default) ?? first?.product_links[0])?.id ?? null,
        qty: 1,
      },
      [String(second?.option_id)]: { linkId: other?.id ?? null, qty: 1 },
    },
  }).formatted.final
  await expect(page.getByTestId('price-final')).toHaveText(expected)
  // A required option with quantity 0 fails.
  if (first?.required) {
    await page.getByTestId(`bundle-qty-${first.option_id}`).fill('0')
    await page.getByTestId('add-to-cart').click()
    await expect(page.getByTestId(`bundle-option-${first.option_id}`).getByRole('alert')).toHaveText(
      'Must be greater than 0',
    )
    await page.getByTestId(`bundle-qty-${first.option_id}`).fill('2')
    await expect(page.getByTestId(`bundle-option-${first.option_id}`).getByRole('alert')).toHaveCount(0)
  }
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!')).toBeVisible()
  // The line is in the cart store: the header's minicart counts it.
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
})

test('wishlist and compare survive a reload and show on their pages', async ({ page }) => {
  await openProduct(page, '/p/GRP2328/bridal-jewellery-set-grp2328')
  await page.getByTestId('add-to-wishlist').click()
  await expect(page.getByTestId('add-to-wishlist')).toHaveAttribute('aria-pressed', 'true')
  await page.getByTestId('add-to-compare').click()
  await expect(page.getByText('Product Bridal Jewellery Set has been added to the compare!')).toBeVisible()
  await expect(page.getByTestId('add-to-compare')).toHaveAttribute('aria-pressed', 'true')

  await page.reload()
  await waitForHydration(page)
  await expect(page.getByTestId('add-to-wishlist')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('add-to-compare')).toHaveAttribute('aria-pressed', 'true')

  // The header's wishlist panel lists it.
  await page.getByTestId('wishlist-button').click()
  await expect(page.getByTestId('wishlist-panel').locator('[data-sku="GRP2328"]')).toBeVisible()

  await openProduct(page, '/wishlist')
  await expect(page.getByTestId('wishlist-page').locator('[data-sku="GRP2328"]')).toContainText(
    'Bridal Jewellery Set',
  )

  await openProduct(page, '/compare')
  await expect(page.getByTestId('compare-table').locator('th[data-sku="GRP2328"]')).toContainText(
    'Bridal Jewellery Set',
  )
  await page.getByRole('button', { name: 'Remove Bridal Jewellery Set from compare' }).click()
  await expect(page.getByText('Product Bridal Jewellery Set has been removed from compare!')).toBeVisible()
  await expect(page.getByTestId('compare-empty')).toBeVisible()
})

/**
 * On the first page only, the IndexedDB writes of one collection (`cart`, `compare`) fail, as a
 * write does whose transaction the leaving page aborts.
 */
async function failWritesOnFirstPage(page: Page, collection: string): Promise<void> {
  await page.addInitScript((name) => {
    if (sessionStorage.getItem(`${name}-writes-failed`)) return
    sessionStorage.setItem(`${name}-writes-failed`, '1')
    const put = IDBObjectStore.prototype.put
    IDBObjectStore.prototype.put = function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['put']>
    ) {
      if (this.name.endsWith(`-${name}`)) throw new DOMException('the page is gone', 'AbortError')
      return put.apply(this, args)
    }
  }, collection)
}

test('a piece added to compare is still there after the page is left before IndexedDB took it', async ({
  page,
}) => {
  await failWritesOnFirstPage(page, 'compare')
  await openProduct(page, '/p/GRP2328/bridal-jewellery-set-grp2328')
  await page.getByTestId('add-to-compare').click()
  await expect(page.getByTestId('add-to-compare')).toHaveAttribute('aria-pressed', 'true')
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByTestId('add-to-compare')).toHaveAttribute('aria-pressed', 'true')
  await openProduct(page, '/compare')
  await expect(page.getByTestId('compare-table').locator('th[data-sku="GRP2328"]')).toContainText(
    'Bridal Jewellery Set',
  )
})

test('a piece added to the bag is in the cart after the page is left before IndexedDB took it', async ({
  page,
  request,
}) => {
  const product = await pickProduct(request)
  const variant = product.variants[0]
  await failWritesOnFirstPage(page, 'cart')
  await openProduct(page, product.url)
  for (const [label, value] of variant?.options ?? [])
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await openProduct(page, '/cart')
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await expect(page.getByTestId('cart-line')).toHaveCount(1)
  await expect(page.getByTestId('cart-line')).toContainText(product.name)
})

test('recently viewed lists the last products, newest first', async ({ page }) => {
  const visits = [
    ['ACC2301', '/p/ACC2301/kundan-jhumka-earrings-acc2301'],
    ['KUR1009', '/p/KUR1009/roshni-chikankari-kurta-kur1009'],
    ['TEE1033', '/p/TEE1033/sitara-supima-tee-tee1033'],
  ] as const
  for (const [, path] of visits) await openProduct(page, path)
  // On the third product: the two before it, newest first.
  const shown = page.getByTestId('recently-viewed').locator('[data-sku]')
  await expect(shown.first()).toHaveAttribute('data-sku', 'KUR1009')
  const skus = await shown.evaluateAll((els) => els.map((e) => e.getAttribute('data-sku')))
  expect(skus.indexOf('KUR1009')).toBeLessThan(skus.indexOf('ACC2301'))
  expect(skus).not.toContain('TEE1033')
  // Revisiting the first moves it to the front.
  await openProduct(page, visits[0][1])
  await expect(page.getByTestId('recently-viewed').locator('[data-sku]').first()).toHaveAttribute(
    'data-sku',
    'TEE1033',
  )
  const after = await page
    .getByTestId('recently-viewed')
    .locator('[data-sku]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-sku')))
  expect(after.slice(0, 2)).toEqual(['TEE1033', 'KUR1009'])
})
