import { renderToReadableStream, renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { preloadIndexes } from '../../../../../client/islands/product/gallery'
import { ProductFormIsland, type ProductFormProps } from '../../../../../client/islands/product/product-form'
import { variantUrl } from '../../../../../client/islands/product/variant-url'
import { CustomAttributes } from '../../../../../shared/components/product/product-details'
import {
  comparableValues,
  customAttributeRows,
  designerName,
  formatAttributeValue,
  toFormProduct,
} from '../../../../../shared/components/product/view'
import { type Attribute, type Product, ProductSchema } from '../../../../../shared/schemas/catalog'
import { decodeEntities } from '../../../../helpers/html'
import { NECKLACE_LINK, SILK_SAREE, SIZE_S_M } from '../../../../helpers/product-fixtures'

const NOW = Date.UTC(2026, 5, 15, 12)

function attr(code: string, input: string, extra: Partial<Attribute> = {}): Attribute {
  return {
    attribute_id: code.length,
    attribute_code: code,
    default_frontend_label: code[0]?.toUpperCase() + code.slice(1),
    frontend_label: null,
    frontend_input: input,
    options: [],
    is_visible: true,
    is_user_defined: true,
    is_visible_on_front: true,
    is_comparable: false,
    ...extra,
  }
}

const ATTRIBUTES: Attribute[] = [
  attr('fabric', 'select', {
    options: [
      { value: '1', label: 'Silk' },
      { value: '2', label: 'Cotton' },
    ],
    is_comparable: true,
  }),
  attr('occasion', 'multiselect', {
    options: [
      { value: '10', label: 'Wedding' },
      { value: '11', label: 'Festive' },
      { value: '12', label: 'Casual' },
    ],
  }),
  attr('work', 'text'),
  attr('care', 'text', { frontend_label: 'Care instructions' }),
  attr('internal_code', 'text', { is_visible_on_front: false }),
  attr('color', 'select', { options: [{ value: '49', label: 'Red' }] }),
  attr('designer', 'select', { options: [{ value: '300', label: 'Ritu Kumar' }], is_comparable: true }),
]

function product(over: Record<string, unknown> = {}): Product {
  return ProductSchema.parse({
    ...SILK_SAREE,
    fabric: 1,
    occasion: '10,11',
    work: '',
    designer: 300,
    ...over,
  })
}

describe('custom attributes', () => {
  it('shows label + value, select labels, multiselect labels joined by commas, placeholder for empty', () => {
    const rows = customAttributeRows(product(), ATTRIBUTES, 'N/A')
    expect(rows).toEqual([
      { code: 'fabric', label: 'Fabric', value: 'Silk' },
      { code: 'occasion', label: 'Occasion', value: 'Wedding, Festive' },
      { code: 'work', label: 'Work', value: 'N/A' },
      { code: 'care', label: 'Care instructions', value: 'N/A' },
      { code: 'color', label: 'Color', value: 'N/A' },
    ])
  })

  it('leaves out attributes hidden on the front, the variant attributes and the designer', () => {
    const p = product({
      type_id: 'configurable',
      configurable_options: [{ attribute_code: 'color', attribute_id: 93, label: 'Color', values: [] }],
    })
    const codes = customAttributeRows(p, ATTRIBUTES, 'N/A').map((r) => r.code)
    expect(codes).not.toContain('internal_code')
    expect(codes).not.toContain('color')
    expect(codes).not.toContain('designer')
  })

  it.each([
    [
      attr('a', 'multiselect', {
        options: [
          { value: '1', label: 'One' },
          { value: '2', label: 'Two' },
        ],
      }),
      [1, 2],
      'One, Two',
    ],
    [attr('a', 'select', { options: [{ value: '1', label: 'One' }] }), 99, 'N/A'],
    [attr('a', 'text'), null, 'N/A'],
    [attr('a', 'text'), [], 'N/A'],
    [attr('a', 'boolean'), 1, 'Yes'],
    [attr('a', 'boolean'), 0, 'No'],
    [attr('a', 'text'), 42, '42'],
  ])('formatAttributeValue(%#)', (a, value, expected) => {
    expect(formatAttributeValue(a, value, 'N/A')).toBe(expected)
  })

  it('renders a definition list with the placeholder text', () => {
    const html = renderToString(<CustomAttributes rows={customAttributeRows(product(), ATTRIBUTES, 'N/A')} />)
    expect(html).toContain('<dt>Occasion</dt><dd>Wedding, Festive</dd>')
    expect(html).toContain('<dt>Work</dt><dd>N/A</dd>')
  })

  it('names the designer from designer_name or the designer option, and keeps comparable raw values', () => {
    expect(designerName(product(), ATTRIBUTES)).toBe('Ritu Kumar')
    expect(designerName(product({ designer_name: 'Sabyasachi' }), ATTRIBUTES)).toBe('Sabyasachi')
    expect(comparableValues(product(), ATTRIBUTES)).toEqual({ fabric: 1, designer: 300 })
  })
})

function formProps(p: Product, over: Partial<ProductFormProps> = {}): ProductFormProps {
  return {
    product: toFormProduct(p),
    childSku: null,
    currency: 'INR',
    country: 'IN',
    now: NOW,
    taxRules: [],
    summary: { sku: p.sku, id: p.id, name: p.name, url: '/x', image: null, price: p.price },
    variantImages: {},
    sizeGuide: null,
    ...over,
  }
}

/** The form as the server streams it, once every part it loads on demand (custom options, bundle, grouped tables) is in. */
async function renderFormComplete(props: ProductFormProps): Promise<string> {
  const stream = await renderToReadableStream(<ProductFormIsland.Component {...props} />)
  await stream.allReady
  return decodeEntities(await new Response(stream).text())
}

function renderForm(props: ProductFormProps): string {
  return decodeEntities(renderToString(<ProductFormIsland.Component {...props} />))
}

describe('product form (server render)', () => {
  it("shows the 'Out Of Stock' badge and disables add to cart for an out-of-stock product", () => {
    const html = renderForm(formProps(product({ stock: { qty: 0, is_in_stock: false, stock_status: 0 } })))
    expect(html).toContain('data-testid="out-of-stock">Out Of Stock<')
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="add-to-cart"/)
  })

  it('shows a special price only inside its window, with the regular price struck and the discount', () => {
    const onSale = renderForm(
      formProps(
        product({ special_price: 750, special_from_date: '2026-01-01', special_to_date: '2026-12-31' }),
      ),
    )
    expect(onSale).toContain('data-testid="price-final">₹750<')
    expect(onSale).toContain('<del class="price price--regular" data-testid="price-regular">₹1,000</del>')
    expect(onSale).toContain('25% off')
    const expired = renderForm(
      formProps(
        product({ special_price: 750, special_from_date: '2025-01-01', special_to_date: '2025-12-31' }),
      ),
    )
    expect(expired).toContain('data-testid="price-final">₹1,000<')
    expect(expired).not.toContain('price-regular')
  })

  it('preselects the default bundle link (else the first) with its qty (else 1)', async () => {
    const bundle = product({
      type_id: 'bundle',
      bundle_options: [
        {
          option_id: 1,
          title: 'Earrings',
          required: true,
          product_links: [
            { id: 11, sku: 'E1', qty: 1, is_default: false, product: { name: 'Studs', price: 100 } },
            { id: 12, sku: 'E2', qty: 3, is_default: true, product: { name: 'Jhumka', price: 200 } },
          ],
        },
        {
          option_id: 2,
          title: 'Bag',
          required: false,
          product_links: [
            { id: 21, sku: 'B1', is_default: false, product: { name: 'Potli', price: 50 } },
            { id: 22, sku: 'B2', is_default: false, product: { name: 'Tote', price: 60 } },
          ],
        },
      ],
    })
    const html = await renderFormComplete(formProps(bundle))
    expect(html).toMatch(/name="bundle-1" checked="" value="12"/)
    expect(html).not.toMatch(/name="bundle-1" checked="" value="11"/)
    expect(html).toMatch(/name="bundle-2" checked="" value="21"/)
    expect(html).toMatch(/type="number" min="0"[^>]*data-testid="bundle-qty-1" value="3"/)
    expect(html).toMatch(/data-testid="bundle-qty-2" value="1"/)
    // Bundle price = default links × qty: 200 × 3 + 50 × 1.
    expect(html).toContain('data-testid="price-final">₹650<')
  })

  it('renders every custom option type with fixed and percent prices', async () => {
    const html = await renderFormComplete(
      formProps(
        product({
          custom_options: [
            {
              option_id: 1,
              title: 'Monogram',
              type: 'field',
              is_require: false,
              price: 150,
              price_type: 'fixed',
            },
            {
              option_id: 2,
              title: 'Stitching',
              type: 'radio',
              is_require: true,
              values: [{ option_type_id: 21, title: 'Stitched', price: 10, price_type: 'percent' }],
            },
            {
              option_id: 3,
              title: 'Fall',
              type: 'drop_down',
              values: [{ option_type_id: 31, title: 'With fall', price: 99, price_type: 'fixed' }],
            },
            {
              option_id: 4,
              title: 'Wrap',
              type: 'checkbox',
              values: [{ option_type_id: 41, title: 'Gift wrap', price: 0 }],
            },
            {
              option_id: 5,
              title: 'Length',
              type: 'select',
              values: [{ option_type_id: 51, title: 'Long', price: 0 }],
            },
          ],
        }),
      ),
    )
    expect(html).toContain('Monogram (+₹150)')
    expect(html).toContain('Stitched (+10%)')
    expect(html).toContain('With fall (+₹99)')
    expect(html).toMatch(/type="checkbox"[^>]*value="41"/)
    expect(html).toMatch(/<select id="co-5"/)
    expect(html).toMatch(/type="radio" name="co-2"/)
  })

  it('shows each grouped piece with its picture, name, stock, price and a quantity (0 leaves it out); the headline is the chosen pieces', async () => {
    const html = await renderFormComplete(
      formProps(
        product({
          type_id: 'grouped',
          product_links: [
            { ...NECKLACE_LINK, product: { ...NECKLACE_LINK.product, image: '/catalog/necklace.jpg' } },
            {
              ...NECKLACE_LINK,
              linked_product_sku: 'G9',
              product: { name: 'Anklet', price: 700, sku: 'G9', stock: { qty: 0, is_in_stock: false } },
            },
          ],
        }),
      ),
    )
    expect(html).toMatch(
      /<img src="[^"]*necklace[^"]*"[^>]*>.*Necklace<br\/>.*In stock.*<\/td><td class="price">₹500<\/td>/,
    )
    expect(html).toMatch(/type="number" min="0"[^>]*aria-label="Quantity of Necklace"[^>]*value="1"/)
    expect(html).toMatch(/Anklet<br\/><span class="badge badge--oos">Out Of Stock<\/span>/)
    expect(html).not.toContain('Quantity of Anklet')
    // The headline is what Add buys: the necklace alone, not the set's ₹1,200.
    expect(html).toMatch(/data-testid="price-final">₹500</)
  })

  it("says 'No available product variants' when every child is disabled", () => {
    const p = product({
      type_id: 'configurable',
      configurable_options: [
        {
          attribute_code: 'color',
          attribute_id: 93,
          label: 'Color',
          values: [{ value_index: 49, label: 'Red' }],
        },
      ],
      configurable_children: [
        { sku: 'P1-R', id: 2, price: 1000, color: 49, status: 2, stock: { qty: 1, is_in_stock: true } },
      ],
    })
    expect(renderForm(formProps(p))).toContain('No available product variants')
  })

  it('picks the URL childSku variant, else the in-stock child with the best discount', () => {
    const p = product({
      type_id: 'configurable',
      configurable_options: [SIZE_S_M],
      configurable_children: [
        { sku: 'P1-S', id: 2, price: 1000, size: 1, status: 1, stock: { qty: 1, is_in_stock: true } },
        {
          sku: 'P1-M',
          id: 3,
          price: 1000,
          special_price: 800,
          special_from_date: '2026-01-01',
          special_to_date: '2026-12-31',
          size: 2,
          status: 1,
          stock: { qty: 1, is_in_stock: true },
        },
      ],
    })
    expect(renderForm(formProps(p))).toContain('SKU P1-M')
    const chosen = renderForm(formProps(p, { childSku: 'P1-S' }))
    expect(chosen).toContain('SKU P1-S')
    expect(chosen).toMatch(/aria-pressed="true"[^>]*data-testid="option-size-1"/)
  })
})

describe('helpers', () => {
  it('variantUrl keeps /p/ paths and uses ?childSku= on url_path pages', () => {
    const p = toFormProduct(product({ sku: 'PAR', slug: 'par-slug' }))
    expect(variantUrl({ pathname: '/p/PAR/par-slug', search: '' }, p, 'PAR-RED')).toBe(
      '/p/PAR/par-slug/PAR-RED',
    )
    expect(variantUrl({ pathname: '/women/par', search: '?a=1' }, p, 'PAR-RED')).toBe(
      '/women/par?a=1&childSku=PAR-RED',
    )
  })

  it('preloads images within the preload range (2), wrapping around', () => {
    expect(preloadIndexes(0, 6).sort()).toEqual([0, 1, 2, 4, 5])
    expect(preloadIndexes(1, 2).sort()).toEqual([0, 1])
  })
})
