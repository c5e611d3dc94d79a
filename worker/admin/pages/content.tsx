/**
 * Content: the list of CMS pages and blocks (created and deleted here) and the block editor. The
 * editor works without script like every screen: one form whose buttons preview, add, move and
 * remove blocks (the draft comes back with the preview, nothing saved) or publish it; a refused
 * block comes back with what was typed and the reason beside its field.
 */
import type { Context } from 'hono'
import { BLOCK_TYPES, type Block } from '../content-blocks'
import type { AdminEnv } from '../env'
import type { MediaItem } from '../media'
import { can } from '../roles'
import { Choice, Confirm, Field, PostForm, TextArea, Unfold } from './components'
import { renderAdmin } from './frame'

type Kind = 'page' | 'block'

export function contentPage(
  c: Context<AdminEnv>,
  pages: Record<string, unknown>[],
  blocks: Record<string, unknown>[],
) {
  const list = (kind: Kind, rows: Record<string, unknown>[]) => (
    <ul>
      {rows.map((r) => (
        <li key={String(r.id)}>
          <a href={`/admin/content/${kind}/${String(r.id)}`}>{String(r.title ?? r.identifier)}</a> (
          {kind === 'page' ? `/${String(r.identifier)}` : String(r.identifier)})
          {r.is_active ? '' : ' — hidden'}
        </li>
      ))}
    </ul>
  )
  return renderAdmin(
    c,
    'Content',
    <>
      <p>
        <a href="/admin/home">Edit the home page's sections</a> · <a href="/admin/media">Media library</a>
      </p>
      <section className="card">
        <h2>Pages</h2>
        {list('page', pages)}
        <NewContent kind="page" />
      </section>
      <section className="card">
        <h2>Blocks</h2>
        {list('block', blocks)}
        <NewContent kind="block" />
      </section>
    </>,
  )
}

/** A new page or block: its identifier (a page's address), title and state; its blocks come next. */
function NewContent(props: { kind: Kind }) {
  return (
    <Unfold
      needs="content"
      summary={`New ${props.kind}`}
      action={`/admin/api/content/${props.kind}`}
      back="/admin/content"
      label={`Create ${props.kind}`}
    >
      <Field
        label={props.kind === 'page' ? 'Identifier (its address: /identifier)' : 'Identifier'}
        name="identifier"
        required
        maxLength={100}
      />
      <Field label="Title" name="title" required maxLength={300} />
      <input type="hidden" name="is_active" value="false" />
      <Field label="Published" type="checkbox" name="is_active" value="true" defaultChecked />
    </Unfold>
  )
}

/** What the editor shows: the item, its blocks (saved or a draft), the preview and the library. */
export interface EditorView {
  kind: Kind
  item: { id: number; identifier: string; title: string; is_active: boolean }
  blocks: Block[]
  preview: string
  media: MediaItem[]
  /** The draft is not saved yet (after a preview or a move). */
  draft?: boolean
}

const LEVELS = [
  ['2', 'Large (section heading)'],
  ['3', 'Smaller (sub-heading)'],
] as const

/** The fields of block `i`, by its type. */
function BlockFields(props: { b: Block; i: number; media: MediaItem[] }) {
  const { b, i } = props
  const n = (f: string) => `b${i}.${f}`
  switch (b.type) {
    case 'heading':
      return (
        <>
          <Field label="Heading" name={n('text')} defaultValue={b.text ?? ''} maxLength={200} />
          <Choice label="Size" name={n('level')} options={LEVELS} defaultValue={b.level ?? '2'} />
        </>
      )
    case 'text':
      return (
        <TextArea
          label="Text (a blank line starts a new paragraph)"
          name={n('text')}
          rows={5}
          defaultValue={b.text ?? ''}
        />
      )
    case 'image':
      return (
        <>
          <Choice
            label="Picture from the media library"
            name={n('src')}
            defaultValue={b.src ?? ''}
            options={[
              ['', props.media.length ? '— choose a picture —' : '— the library is empty: upload first —'],
              ...props.media.map((m) => [m.path, m.alt] as const),
            ]}
          />
          <Field label="Alt text (empty: the library's)" name={n('alt')} defaultValue={b.alt ?? ''} />
          <Field label="Caption (optional)" name={n('text')} defaultValue={b.text ?? ''} />
        </>
      )
    case 'button':
      return (
        <>
          <Field label="Button says" name={n('label')} defaultValue={b.label ?? ''} maxLength={100} />
          <Field label="Opens (/about-us or https://…)" name={n('href')} defaultValue={b.href ?? ''} />
        </>
      )
    case 'products':
      return (
        <TextArea
          label="SKUs of the products, comma-separated (find them under Catalogue)"
          name={n('skus')}
          rows={2}
          defaultValue={b.skus ?? ''}
        />
      )
    case 'html':
      return (
        <TextArea
          label="Formatted text (imported; only what the shop allows is kept, see the preview)"
          name={n('text')}
          rows={8}
          defaultValue={b.text ?? ''}
        />
      )
  }
}

const typeLabel = (t: string) => BLOCK_TYPES.find(([v]) => v === t)?.[1] ?? t

/** The editor's blocks with their move and remove buttons. */
function Blocks(props: { blocks: Block[]; media: MediaItem[]; mayEdit: boolean }) {
  const last = props.blocks.length - 1
  return (
    <>
      {props.blocks.map((b, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a block is its place in the list
        <fieldset key={i} aria-label={`Block ${i + 1}: ${typeLabel(b.type)}`}>
          <legend>
            Block {i + 1}: {typeLabel(b.type)}
          </legend>
          <input type="hidden" name={`b${i}.type`} value={b.type} />
          <BlockFields b={b} i={i} media={props.media} />
          {props.mayEdit ? (
            <span>
              {i > 0 ? (
                <button type="submit" name="_op" value={`up:${i}`} aria-label={`Move block ${i + 1} up`}>
                  ↑
                </button>
              ) : null}{' '}
              {i < last ? (
                <button type="submit" name="_op" value={`down:${i}`} aria-label={`Move block ${i + 1} down`}>
                  ↓
                </button>
              ) : null}{' '}
              <button type="submit" name="_op" value={`remove:${i}`} className="danger">
                Remove block {i + 1}
              </button>
            </span>
          ) : null}
        </fieldset>
      ))}
    </>
  )
}

export function contentEditPage(c: Context<AdminEnv>, view: EditorView, status: 200 | 400 = 200) {
  const { kind, item } = view
  const role = c.var.operator?.role
  const mayEdit = !role || can(role, 'content')
  const back = `/admin/content/${kind}/${item.id}`
  return renderAdmin(
    c,
    `Edit ${kind} ${item.identifier}`,
    <>
      {kind === 'page' ? (
        <p>
          On the shop at <a href={`/${item.identifier}`}>/{item.identifier}</a>
          {item.is_active ? '' : ' (hidden)'}. Pictures come from the <a href="/admin/media">media library</a>
          .
        </p>
      ) : null}
      {view.draft ? (
        <p role="status" className="card">
          This is a draft: it is not on the shop until you publish it.
        </p>
      ) : null}
      <PostForm
        needs="content"
        action={`/admin/api/content/${kind}/${item.id}/editor`}
        back={back}
        label="Publish"
      >
        {/* The first button is the one Enter presses: it only previews. */}
        <button type="submit" name="_op" value="preview">
          Preview
        </button>
        <Field label="Title" name="title" defaultValue={item.title} required maxLength={300} />
        <input type="hidden" name="is_active" value="false" />
        <Field
          label="Published"
          type="checkbox"
          name="is_active"
          value="true"
          defaultChecked={item.is_active}
        />
        <Blocks blocks={view.blocks} media={view.media} mayEdit={mayEdit} />
        <fieldset aria-label="Add a block">
          <legend>Add a block</legend>
          <Choice label="Type" name="add_type" options={BLOCK_TYPES.filter(([t]) => t !== 'html')} />
          <button type="submit" name="_op" value="add">
            Add block
          </button>
        </fieldset>
      </PostForm>
      <section className="card" aria-label="Preview">
        <h2>Preview (as the shop shows it)</h2>
        {/* The sanitiser's output, exactly what the shop shows. */}
        <div className="cms-content" data-preview="" dangerouslySetInnerHTML={{ __html: view.preview }} />
      </section>
      <Confirm
        needs="content"
        summary={`Delete this ${kind}`}
        explanation={`The ${kind} ${item.identifier} is removed${kind === 'page' ? ' with its address' : ''}; this cannot be undone.`}
        action={`/admin/api/content/${kind}/${item.id}/delete`}
        back={back}
        label={`Delete ${kind} ${item.identifier}`}
      />
    </>,
    status,
  )
}
