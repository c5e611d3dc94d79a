/**
 * The home page's sections and hero banners, picked from lists: a category from the category
 * list, products found by a search (ticked, or their SKUs typed), a CMS block from the blocks,
 * a banner's picture from the media library and its link from the shop's pages.
 */
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AdminEnv } from '../env'
import { HOME_SECTION_TYPES } from '../home'
import type { MediaItem } from '../media'
import { Choice, Field, PostForm, Table, TextArea } from './components'
import { renderAdmin } from './frame'

interface SectionView {
  id: number
  type: string
  title?: string
  position?: number
  category_id?: number
  skus?: string[]
  block_identifier?: string
}

interface BannerView {
  id: number
  title?: string
  image?: string
  link?: string
}

/** What the home screen lists to pick from. */
interface HomeChoices {
  categories: { id: number; name: string; url_path: string }[]
  blocks: { identifier: string; title?: unknown }[]
  pages: { identifier: string; title?: unknown }[]
  media: MediaItem[]
  /** The product search typed, and what it found. */
  q: string
  found: { sku: string; name: string }[]
}

const TYPE_WORDS: Record<string, string> = {
  banner: 'Hero banners (where they show)',
  category_products: "A category's products",
  products: 'Products picked by hand',
  cms_block: 'A CMS block',
}

/** The fields of a section of one type (all of them for a new section). */
function SectionFields(props: { s?: SectionView; choices: HomeChoices }): ReactNode {
  const { s, choices } = props
  const type = s?.type
  const show = (t: string) => !type || type === t
  return (
    <>
      {s ? (
        <input type="hidden" name="type" value={s.type} />
      ) : (
        <Choice
          label="Type"
          name="type"
          defaultValue="products"
          options={HOME_SECTION_TYPES.map((t) => [t, TYPE_WORDS[t] ?? t] as const)}
        />
      )}
      <Field label="Title" name="title" defaultValue={s?.title ?? ''} required />
      <Field label="Position" name="position" inputMode="numeric" defaultValue={String(s?.position ?? 0)} />
      {show('category_products') ? (
        <Choice
          label={`Category${type ? '' : " (for a category's products)"}`}
          name="category_id"
          defaultValue={s?.category_id ? String(s.category_id) : ''}
          options={[
            ['', '— choose —'],
            ...choices.categories.map((c) => [String(c.id), `${c.name} (/${c.url_path})`] as const),
          ]}
        />
      ) : null}
      {show('products') ? (
        <TextArea
          label={`SKUs, comma-separated${type ? '' : ' (for products picked by hand)'}`}
          name="skus"
          rows={2}
          defaultValue={(s?.skus ?? []).join(', ')}
        />
      ) : null}
      {show('products') && !s && choices.found.length ? (
        <fieldset aria-label="Products found">
          <legend>Products found for “{choices.q}”: tick to add</legend>
          {choices.found.map((p, i) => (
            <Field
              key={p.sku}
              label={`${p.name} (${p.sku})`}
              type="checkbox"
              name={`pick_${i}`}
              value={p.sku}
            />
          ))}
        </fieldset>
      ) : null}
      {show('cms_block') ? (
        <Choice
          label={`CMS block${type ? '' : ' (for a block)'}`}
          name="block_identifier"
          defaultValue={s?.block_identifier ?? ''}
          options={[
            ['', '— choose —'],
            ...choices.blocks.map((b) => [b.identifier, String(b.title ?? b.identifier)] as const),
          ]}
        />
      ) : null}
    </>
  )
}

/** The red Remove button of a banner or a section, named by its title (or its id when it has none). */
function RemoveForm(props: {
  kind: 'banner' | 'section'
  item: { id: number; title?: string | null }
  back: string
}) {
  const { kind, item } = props
  return (
    <PostForm
      needs="content"
      action={`/admin/api/home/${kind}s/${item.id}/delete`}
      back={props.back}
      label="Remove"
      buttonLabel={`Remove ${kind} ${item.title ?? item.id}`}
      danger
    />
  )
}

function Banners(props: { banners: BannerView[]; choices: HomeChoices }) {
  const back = '/admin/home'
  const { media, pages } = props.choices
  return (
    <section className="card" aria-labelledby="hero-banners">
      <h2 id="hero-banners">Hero banners</h2>
      <p>They turn at the top of the home page, where the “Hero banners” section stands.</p>
      <Table
        rows={props.banners}
        rowKey={(b) => b.id}
        columns={[
          {
            header: 'Picture',
            cell: (b) =>
              b.image ? <img src={`/img/310/300${b.image}`} alt="" width={93} height={90} /> : null,
          },
          { header: 'Words', cell: (b) => b.title },
          { header: 'Opens', cell: (b) => <a href={b.link}>{b.link}</a> },
          {
            header: '',
            cell: (b) => <RemoveForm kind="banner" item={b} back={back} />,
          },
        ]}
      />
      <h3>Add a banner</h3>
      <PostForm needs="content" action="/admin/api/home/banners" back={back} label="Add banner">
        <Choice
          label="Picture from the media library"
          name="image"
          options={[
            ['', media.length ? '— choose —' : '— upload one first —'],
            ...media.map((m) => [m.path, m.alt] as const),
          ]}
        />
        <Field label="Words on the banner" name="title" required maxLength={120} />
        <Choice
          label="Opens"
          name="link"
          options={[
            ['/', 'the home page'],
            ...pages.map(
              (p) => [`/${p.identifier}`, `${String(p.title ?? p.identifier)} (/${p.identifier})`] as const,
            ),
            ...props.choices.categories.map((c) => [`/${c.url_path}`, `${c.name} (/${c.url_path})`] as const),
          ]}
        />
      </PostForm>
    </section>
  )
}

export function homeSectionsPage(
  c: Context<AdminEnv>,
  sections: SectionView[],
  banners: BannerView[],
  choices: HomeChoices,
) {
  const back = '/admin/home'
  return renderAdmin(
    c,
    'Home page sections',
    <>
      <p>
        Sections show in order of position. Saving publishes at once. Pictures come from the{' '}
        <a href="/admin/media">media library</a>.
      </p>
      <Banners banners={banners} choices={choices} />
      {sections.map((s) => (
        <section key={s.id} className="card" aria-labelledby={`section-${s.id}`}>
          <h2 id={`section-${s.id}`}>
            {s.title || '(untitled)'} — {TYPE_WORDS[s.type] ?? s.type}
          </h2>
          <PostForm
            needs="content"
            action={`/admin/api/home/sections/${s.id}`}
            back={back}
            label="Save section"
            buttonLabel={`Save section ${s.title ?? s.id}`}
          >
            <SectionFields s={s} choices={choices} />
          </PostForm>
          <RemoveForm kind="section" item={s} back={back} />
        </section>
      ))}
      <section className="card" aria-labelledby="add-section">
        <h2 id="add-section">Add a section</h2>
        <form method="get" action="/admin/home">
          <label>
            Find products by name or SKU <input name="q" defaultValue={choices.q} maxLength={100} />
          </label>
          <button type="submit">Find</button>
        </form>
        {choices.q && !choices.found.length ? <p>No product matches “{choices.q}”.</p> : null}
        <PostForm needs="content" action="/admin/api/home/sections" back={back} label="Add section">
          <SectionFields choices={choices} />
        </PostForm>
      </section>
    </>,
  )
}
