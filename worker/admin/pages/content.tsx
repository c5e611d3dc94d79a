/** Content: CMS pages and blocks (edit with the sanitiser's preview) and the home page's sections. */
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AdminEnv } from '../env'
import { HOME_SECTION_TYPES } from '../home'
import { Choice, Field, PostForm } from './components'
import { renderAdmin } from './frame'

export function contentPage(
  c: Context<AdminEnv>,
  pages: Record<string, unknown>[],
  blocks: Record<string, unknown>[],
) {
  const list = (kind: string, rows: Record<string, unknown>[]) => (
    <ul>
      {rows.map((r) => (
        <li key={String(r.id)}>
          <a href={`/admin/content/${kind}/${String(r.id)}`}>{String(r.title ?? r.identifier)}</a> (
          {String(r.identifier)}){r.is_active ? '' : ' — hidden'}
        </li>
      ))}
    </ul>
  )
  return renderAdmin(
    c,
    'Content',
    <>
      <p>
        <a href="/admin/home">Edit the home page's sections</a>
      </p>
      <section className="card">
        <h2>Pages</h2>
        {list('page', pages)}
      </section>
      <section className="card">
        <h2>Blocks</h2>
        {list('block', blocks)}
      </section>
    </>,
  )
}

export function contentEditPage(
  c: Context<AdminEnv>,
  kind: 'page' | 'block',
  item: { id: number; identifier: string; title: string; content: string; is_active: boolean },
  preview: string,
) {
  return renderAdmin(
    c,
    `Edit ${kind} ${item.identifier}`,
    <>
      <PostForm
        needs="content"
        action={`/admin/api/content/${kind}/${item.id}`}
        back={`/admin/content/${kind}/${item.id}`}
        label="Publish"
      >
        <Field label="Title" name="title" defaultValue={item.title} required />
        <label>
          Content (HTML) <textarea name="content" rows={14} cols={60} defaultValue={item.content} />
        </label>
        <input type="hidden" name="is_active" value="false" />
        <Field
          label="Published"
          type="checkbox"
          name="is_active"
          value="true"
          defaultChecked={item.is_active}
        />
      </PostForm>
      <section className="card" aria-label="Preview">
        <h2>Preview (as the shop shows it)</h2>
        {/* The sanitiser's output, exactly what the shop shows. */}
        <div dangerouslySetInnerHTML={{ __html: preview }} />
      </section>
    </>,
  )
}

interface SectionView {
  id: number
  type: string
  title?: string
  position?: number
  category_id?: number
  skus?: string[]
  block_identifier?: string
}

/** The fields of a section of one type (all of them for a new section). */
function SectionFields(props: { s?: SectionView }): ReactNode {
  const s = props.s
  const type = s?.type
  const show = (t: string) => !type || type === t
  return (
    <>
      {s ? (
        <input type="hidden" name="type" value={s.type} />
      ) : (
        <Choice label="Type" name="type" defaultValue="products" options={HOME_SECTION_TYPES} />
      )}
      <Field label="Title" name="title" defaultValue={s?.title ?? ''} required />
      <Field label="Position" name="position" inputMode="numeric" defaultValue={String(s?.position ?? 0)} />
      {show('category_products') ? (
        <label>
          Category id{type ? '' : ' (category_products)'}{' '}
          <input
            name="category_id"
            inputMode="numeric"
            defaultValue={s?.category_id ?? ''}
            required={!!type}
          />
        </label>
      ) : null}
      {show('products') ? (
        <label>
          SKUs, comma-separated{type ? '' : ' (products)'}{' '}
          <textarea name="skus" rows={2} defaultValue={(s?.skus ?? []).join(', ')} required={!!type} />
        </label>
      ) : null}
      {show('cms_block') ? (
        <label>
          CMS block identifier{type ? '' : ' (cms_block)'}{' '}
          <input name="block_identifier" defaultValue={s?.block_identifier ?? ''} required={!!type} />
        </label>
      ) : null}
    </>
  )
}

export function homeSectionsPage(c: Context<AdminEnv>, sections: SectionView[]) {
  const back = '/admin/home'
  return renderAdmin(
    c,
    'Home page sections',
    <>
      <p>
        Sections show in order of position. A section of products lists SKUs by hand; a category section shows
        that category's products; a block section shows a CMS block. Saving publishes at once.
      </p>
      {sections.map((s) => (
        <section key={s.id} className="card" aria-labelledby={`section-${s.id}`}>
          <h2 id={`section-${s.id}`}>
            {s.title || '(untitled)'} — {s.type}
          </h2>
          <PostForm
            needs="content"
            action={`/admin/api/home/sections/${s.id}`}
            back={back}
            label="Save section"
            buttonLabel={`Save section ${s.title ?? s.id}`}
          >
            <SectionFields s={s} />
          </PostForm>
          <PostForm
            needs="content"
            action={`/admin/api/home/sections/${s.id}/delete`}
            back={back}
            label="Remove"
            buttonLabel={`Remove section ${s.title ?? s.id}`}
            danger
          />
        </section>
      ))}
      <section className="card">
        <h2>Add a section</h2>
        <PostForm needs="content" action="/admin/api/home/sections" back={back} label="Add section">
          <SectionFields />
        </PostForm>
      </section>
    </>,
  )
}
