// CMS content edited as blocks: what is stored is the sanitiser's output (script and event
// handlers never stored, typed text never read as markup), the editor's preview is exactly what
// the shop renders, a bad block is refused in words beside its field with everything typed kept
// and nothing saved, and the editor's buttons move blocks without saving.

import { env, SELF } from 'cloudflare:test'
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import { beforeEach, describe, expect, it } from 'vitest'
import { blocksFromHtml, renderBlocks } from '../../../worker/admin/content-blocks'
import { SCARF, seedCartFixtures } from '../../helpers/cart-fixtures'
import { freshJpeg, inside, uploadPicture } from './media-helpers'
import { admin, operator, post } from './operator'

beforeEach(seedCartFixtures)

async function newPage(who: Awaited<ReturnType<typeof operator>>) {
  const identifier = `edit-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`
  const made = await admin(who, '/api/content/page', {
    body: { identifier, title: 'Atelier', is_active: true },
  })
  expect(made.status, made.text).toBe(200)
  return { identifier, id: made.json.result.id as number }
}

const storedContent = async (id: number) =>
  JSON.parse(
    (await env.DB.prepare('SELECT doc FROM cms_pages WHERE id = ?').bind(id).first<{ doc: string }>())?.doc ??
      '{}',
  ) as { content: string; blocks?: unknown[]; title: string }

describe('the block editor', () => {
  it('stores sanitised HTML, and its preview is what the shop renders', async () => {
    const staff = await operator('staff')
    const { identifier, id } = await newPage(staff)
    expect((await uploadPicture(staff, { alt: 'The loom at work', file: freshJpeg() })).status).toBe(303)
    const picture = (await admin(staff, '/api/media')).json.result[0].path as string
    const blocks = [
      { type: 'heading', text: 'Winter <script>alert(1)</script>edit', level: '2' },
      { type: 'text', text: 'Hand-woven in Varanasi.\n\n<img src=x onerror=alert(2)> & more' },
      { type: 'image', src: picture, alt: '' },
      { type: 'button', label: 'Shop sarees', href: '/c/sarees' },
      { type: 'products', skus: SCARF.sku },
      {
        type: 'html',
        text: '<p onclick="steal()">Kept <b>bold</b></p><script>bad()</script><a href="javascript:x()">x</a>',
      },
    ]
    const res = await admin(staff, `/api/content/page/${id}`, {
      body: { title: 'Atelier', blocks, is_active: true },
    })
    expect(res.status, res.text).toBe(200)
    const stored = await storedContent(id)
    expect(stored.content).not.toMatch(/<script|<[^>]+\son\w+=|javascript:/i)
    // Typed text is text: the shopper reads the characters, no element is made of them.
    expect(stored.content).toContain('<h2>Winter &lt;script&gt;alert(1)&lt;/script&gt;edit</h2>')
    expect(stored.content).toContain('&lt;img src=x onerror=alert(2)&gt; &amp; more')
    // The picture with the library's alt text, the button, the product by name with its link.
    expect(stored.content).toContain(`${picture}" alt="The loom at work"`)
    expect(stored.content).toContain('<a class="btn" href="/c/sarees">Shop sarees</a>')
    expect(stored.content).toContain(SCARF.name)
    expect(stored.content).toContain('<p>Kept <b>bold</b></p>')
    expect(stored.blocks).toHaveLength(6)

    const editor = await admin(staff, `/content/page/${id}`)
    const preview = inside(editor.text, 'data-preview=""')
    const shop = await SELF.fetch(`https://shop.test/${identifier}`)
    expect(shop.status).toBe(200)
    const shown = inside(await shop.text(), 'data-testid="cms-content"')
    expect(preview).toBeTruthy()
    expect(shown).toBe(preview)
    // The editor shows the blocks as fields, not HTML in a textarea.
    expect(editor.text).toContain('name="b3.href" value="/c/sarees"')
  })

  it('refuses a bad block in words beside its field, keeps what was typed and saves nothing', async () => {
    const staff = await operator('staff')
    const { id } = await newPage(staff)
    const before = await storedContent(id)
    const res = await post(staff, `/api/content/page/${id}/editor`, `/admin/content/page/${id}`, [
      ['title', 'A title typed'],
      ['is_active', 'false'],
      ['b0.type', 'text'],
      ['b0.text', 'Words the operator typed'],
      ['b1.type', 'button'],
      ['b1.label', 'Shop the edit'],
      ['b1.href', 'javascript:alert(1)'],
      ['b2.type', 'products'],
      ['b2.skus', `${SCARF.sku}, NO-SUCH-SKU`],
      ['_op', 'publish'],
    ])
    expect(res.status).toBe(400)
    expect(res.type).toContain('text/html')
    expect(res.text).toContain('Invalid content: block 2: the address must be a path of the shop')
    expect(res.text).toContain('no product on sale has the SKU NO-SUCH-SKU')
    expect(res.text).toContain('value="A title typed"')
    expect(res.text).toContain('Words the operator typed')
    expect(res.text).toContain('value="Shop the edit"')
    expect(res.text).toContain('value="javascript:alert(1)"')
    expect(res.text).toContain('<input aria-invalid="true" name="b1.href"')
    expect(await storedContent(id)).toEqual(before)
    // A JSON caller gets the same refusal.
    const json = await admin(staff, `/api/content/page/${id}`, {
      body: { title: 'x', blocks: [{ type: 'image', src: '/m/000000000000000000000000.jpg', alt: 'x' }] },
    })
    expect(json.status).toBe(400)
    expect(json.json.result).toBe('Invalid content: block 1: this image is not in the media library')
  })

  it('reads an imported page into heading and text blocks that render the same page', async () => {
    const staff = await operator('staff')
    const row = await env.DB.prepare("SELECT id, doc FROM cms_pages WHERE identifier = 'about-us'").first<{
      id: number
      doc: string
    }>()
    const content = (JSON.parse(row?.doc ?? '{}') as { content: string }).content
    const blocks = blocksFromHtml(content)
    expect(blocks.map((b) => b.type)).toContain('heading')
    expect(blocks.map((b) => b.type)).toContain('text')
    const squeeze = (html: string) => html.replace(/>\s+</g, '><').replace(/\s+/g, ' ').trim()
    const { html, fields } = await renderBlocks(env.DB, blocks, new Map())
    expect(fields).toEqual({})
    expect(squeeze(html)).toBe(squeeze(sanitizeHtml(content)))
    const editor = await admin(staff, `/content/page/${row?.id}`)
    expect(editor.text).toContain('Block 1: Heading')
  })

  it('adds, moves and removes blocks as a draft, saving nothing until published', async () => {
    const staff = await operator('staff')
    const { id, identifier } = await newPage(staff)
    const back = `/admin/content/page/${id}`
    const base: [string, string][] = [
      ['title', 'Draft'],
      ['is_active', 'true'],
      ['b0.type', 'heading'],
      ['b0.text', 'First'],
      ['b1.type', 'text'],
      ['b1.text', 'Second'],
    ]
    const added = await post(staff, `/api/content/page/${id}/editor`, back, [
      ...base,
      ['add_type', 'button'],
      ['_op', 'add'],
    ])
    expect(added.status).toBe(200)
    expect(added.text).toContain('Block 3: Button (a link)')
    const moved = await post(staff, `/api/content/page/${id}/editor`, back, [...base, ['_op', 'up:1']])
    expect(moved.text).toContain('name="b0.text"')
    expect(moved.text.indexOf('Second')).toBeLessThan(moved.text.indexOf('First'))
    expect(moved.text).toContain('This is a draft')
    expect((await storedContent(id)).content).toBe('')
    const published = await post(staff, `/api/content/page/${id}/editor`, back, [
      ...base,
      ['_op', 'remove:0'],
    ])
    expect(published.status).toBe(200)
    const done = await post(staff, `/api/content/page/${id}/editor`, back, [
      ['title', 'Draft'],
      ['is_active', 'true'],
      ['b0.type', 'text'],
      ['b0.text', 'Second'],
    ])
    expect(done.status).toBe(303)
    expect(await (await SELF.fetch(`https://shop.test/${identifier}`)).text()).toContain('<p>Second</p>')
    const viewer = await operator('viewer')
    expect(
      (await post(viewer, `/api/content/page/${id}/editor`, back, [...base, ['_op', 'publish']])).status,
    ).toBe(403)
  })
})
