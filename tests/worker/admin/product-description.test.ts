// A product's description written with the content pages' block editor: stored as the sanitised
// HTML the shop reads and shown on the product page; hostile input never reaches a page; an
// imported description opens as one "Formatted text (imported)" block and, saved without an edit,
// is stored exactly as it was; the editor's buttons answer the draft and save nothing; a refusal
// answers the form with every value typed and the reason beside its field.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { admin, kurtasCategory, operator, post, productBySku, type Session } from './operator'

let staff: Session
let category: { id: number; url_path: string }
let n = 0

beforeAll(async () => {
  staff = await operator('staff')
  category = await kurtasCategory()
})

const NEW = '/admin/products/new?type=simple'
const freshSku = () => `DSC${Date.now() % 100000}${++n}`

/** The new simple product form's fields, with the description's editor fields `blocks`. */
const productForm = (sku: string, blocks: [string, string][]): [string, string][] => [
  ['type_id', 'simple'],
  ['sku', sku],
  ['name', `Kota Doria Saree ${sku}`],
  ['designer_name', 'Asha Verma'],
  ['category_id', String(category.id)],
  ['price', '3,450'],
  ['qty', '3'],
  ['status', 'published'],
  ['description_editor', '1'],
  ...blocks,
]

const shopPage = async (path: string) => (await SELF.fetch(`https://shop.test/${path}`)).text()

describe('a product description written as blocks', () => {
  it('is stored as sanitised HTML with its blocks and shown on the product page', async () => {
    const sku = freshSku()
    const res = await post(
      staff,
      '/api/products/authoring',
      NEW,
      productForm(sku, [
        ['b0.type', 'heading'],
        ['b0.text', 'Woven in Kota'],
        ['b0.level', '2'],
        ['b1.type', 'text'],
        ['b1.text', 'Light as air & sheer.\r\n\r\nDry clean only.'],
        ['b2.type', 'button'],
        ['b2.label', 'Our weavers'],
        ['b2.href', '/about-us'],
      ]),
    )
    expect(res.status, res.text.slice(0, 400)).toBe(303)
    const row = await productBySku(sku)
    const doc = JSON.parse(row?.doc as string)
    expect(doc.description).toBe(
      '<h2>Woven in Kota</h2>\n<p>Light as air &amp; sheer.</p><p>Dry clean only.</p>\n<p><a class="btn" href="/about-us">Our weavers</a></p>',
    )
    expect(doc.description_blocks.map((b: { type: string }) => b.type)).toEqual(['heading', 'text', 'button'])
    const page = await shopPage(row?.url_path as string)
    expect(page).toContain('<h2>Woven in Kota</h2>')
    expect(page).toContain('<p>Light as air &amp; sheer.</p><p>Dry clean only.</p>')
    // The edit page opens the same blocks, with the preview of the stored HTML.
    const edit = await SELF.fetch(`https://shop.test/admin/products/${row?.id}/edit`, {
      headers: { cookie: staff.cookie },
    })
    const form = await edit.text()
    expect(form).toMatch(/name="b0.text"[^>]*value="Woven in Kota"/)
    expect(form).toContain('Block 3: Button (a link)')
    expect(form).toContain('<p>Light as air &amp; sheer.</p><p>Dry clean only.</p>')
  })

  it('never lets a script, a javascript: link or an on* attribute reach the shop', async () => {
    const sku = freshSku()
    const hostile = [
      ['b0.type', 'text'],
      ['b0.text', '<script>alert("t")</script> <img src=x onerror=alert("i")>'],
      // A forged post may carry formatted text: it passes the shop's sanitiser like an import.
      ['b1.type', 'html'],
      [
        'b1.text',
        '<p onclick="alert(\'c\')">Soft</p><a href="javascript:alert(\'j\')">see</a><script>alert("s")</script><img src="/x.jpg" onerror="alert(\'e\')" alt="">',
      ],
    ] as [string, string][]
    const res = await post(staff, '/api/products/authoring', NEW, productForm(sku, hostile))
    expect(res.status, res.text.slice(0, 400)).toBe(303)
    const row = await productBySku(sku)
    const stored = JSON.parse(row?.doc as string).description as string
    for (const html of [stored, await shopPage(row?.url_path as string)]) {
      expect(html).not.toMatch(/<script>alert/i)
      expect(html).not.toMatch(/href\s*=\s*["']?\s*javascript:/i)
      // No element carries an event handler (typed text only shows the characters).
      expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i)
      // Typed text is shown as characters, never run.
      expect(html).toContain('&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;')
      expect(html).toContain('>Soft</p>')
    }
    // A button to a javascript: address is refused beside its field; nothing is saved.
    const other = freshSku()
    const refused = await post(
      staff,
      '/api/products/authoring',
      NEW,
      productForm(other, [
        ['b0.type', 'button'],
        ['b0.label', 'Click'],
        ['b0.href', 'javascript:alert(1)'],
      ]),
    )
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(
      /aria-invalid="true" name="b0.href" value="javascript:alert\(1\)"\/><strong role="alert">/,
    )
    expect(refused.text).toContain('must be a path of the shop')
    expect(await productBySku(other)).toBeNull()
  })
})

describe('a JSON caller', () => {
  it('sends blocks (checked the same way) or HTML (sanitised)', async () => {
    const body = (sku: string, more: Record<string, unknown>) => ({
      type_id: 'simple',
      sku,
      name: `Chikan Kurta ${sku}`,
      category_id: category.id,
      price: '2,100',
      qty: 1,
      ...more,
    })
    const a = freshSku()
    const blocks = [{ type: 'text', text: 'Lucknow <b>chikankari</b>' }]
    expect(
      (await admin(staff, '/api/products/authoring', { body: body(a, { description_blocks: blocks }) }))
        .status,
    ).toBe(200)
    expect(JSON.parse((await productBySku(a))?.doc as string).description).toBe(
      '<p>Lucknow &lt;b&gt;chikankari&lt;/b&gt;</p>',
    )
    const bad = await admin(staff, '/api/products/authoring', {
      body: body(freshSku(), {
        description_blocks: [{ type: 'button', label: 'Go', href: 'javascript:alert(1)' }],
      }),
    })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toContain('Invalid product: description, block 1:')
    const b = freshSku()
    const html = '<p>Shadow work<script>alert(1)</script></p>'
    expect(
      (await admin(staff, '/api/products/authoring', { body: body(b, { description: html }) })).status,
    ).toBe(200)
    expect(JSON.parse((await productBySku(b))?.doc as string).description).toBe('<p>Shadow work</p>')
  })
})

describe('an imported description', () => {
  it('opens as one formatted-text block and, saved without an edit, is stored unchanged', async () => {
    const sku = freshSku()
    const created = await post(staff, '/api/products/authoring', NEW, productForm(sku, []))
    expect(created.status, created.text.slice(0, 400)).toBe(303)
    const row = await productBySku(sku)
    // As an import writes it: HTML the sanitiser would rewrite (upper-case tags, an attribute it
    // drops, a bare ampersand), no blocks beside it.
    const imported = '<P CLASS="lead">Hand-block printed\nin Bagru & Sanganer</P>\n<UL><LI>Cotton</LI></UL>'
    await env.DB.prepare(
      "UPDATE products SET doc = json_remove(json_set(doc, '$.description', ?1), '$.description_blocks') WHERE id = ?2",
    )
      .bind(imported, row?.id)
      .run()
    const edit = await (
      await SELF.fetch(`https://shop.test/admin/products/${row?.id}/edit`, {
        headers: { cookie: staff.cookie },
      })
    ).text()
    expect(edit).toContain('Block 1: Formatted text (imported)')
    expect(edit).toContain('&lt;P CLASS=&quot;lead&quot;&gt;Hand-block printed')
    // The browser sends the textarea back with CRLF line ends.
    const saved = await post(staff, `/api/products/${row?.id}/authoring`, `/admin/products/${row?.id}/edit`, [
      ...productForm(sku, [
        ['b0.type', 'html'],
        ['b0.text', imported.replace(/\n/g, '\r\n')],
      ]),
      ['revision', String(row?.revision)],
      ['name', 'Bagru Print Saree'],
    ])
    expect(saved.status, saved.text.slice(0, 400)).toBe(303)
    const doc = JSON.parse((await productBySku(sku))?.doc as string)
    expect(doc.name).toBe('Bagru Print Saree')
    expect(doc.description).toBe(imported)
    expect(doc.description_blocks).toBeUndefined()
  })
})

describe('the editor in the product form', () => {
  it('adds, moves and previews blocks with every value kept, saving nothing', async () => {
    const sku = freshSku()
    const fields = productForm(sku, [
      ['b0.type', 'text'],
      ['b0.text', 'Second'],
      ['b1.type', 'heading'],
      ['b1.text', 'First'],
      ['b1.level', '3'],
    ])
    const moved = await post(staff, '/api/products/authoring', NEW, [...fields, ['_op', 'up:1']])
    expect(moved.status).toBe(200)
    expect(moved.text).toMatch(/name="b0.text"[^>]*value="First"/)
    expect(moved.text).toMatch(/<textarea name="b1.text"[^>]*>Second<\/textarea>/)
    expect(moved.text).toContain('<h3>First</h3>\n<p>Second</p>')
    expect(moved.text).toMatch(/name="name"[^>]*value="Kota Doria Saree /)
    expect(moved.text).toMatch(/name="price"[^>]*value="3,450"/)
    expect(moved.text).toContain('This is a draft')
    const added = await post(staff, '/api/products/authoring', NEW, [
      ...fields,
      ['_op', 'add'],
      ['add_type', 'button'],
    ])
    expect(added.status).toBe(200)
    expect(added.text).toContain('Block 3: Button (a link)')
    expect(await productBySku(sku)).toBeNull()
  })

  it('answers a refusal with the form as typed and the reason beside the field', async () => {
    const sku = freshSku()
    const res = await post(staff, '/api/products/authoring', NEW, [
      ...productForm(sku, [
        ['b0.type', 'text'],
        ['b0.text', 'Zari border, hand-finished.'],
        ['b1.type', 'heading'],
        ['b1.text', ''],
      ]),
      ['fabric', 'Cotton silk'],
      ['hsn_code', '5208'],
      ['meta_title', 'Kota saree'],
    ])
    expect(res.status).toBe(400)
    expect(res.text).toContain('Invalid product: description, block 2: type the heading')
    expect(res.text).toMatch(
      /aria-invalid="true" name="b1.text" value=""\/><strong role="alert">type the heading/,
    )
    for (const [name, value] of [
      ['sku', sku],
      ['designer_name', 'Asha Verma'],
      ['price', '3,450'],
      ['qty', '3'],
      ['fabric', 'Cotton silk'],
      ['hsn_code', '5208'],
      ['meta_title', 'Kota saree'],
    ])
      expect(res.text).toMatch(new RegExp(`name="${name}"[^>]*value="${value}"`))
    expect(res.text).toMatch(/<textarea name="b0.text"[^>]*>Zari border, hand-finished.<\/textarea>/)
    expect(await productBySku(sku)).toBeNull()
  })
})
