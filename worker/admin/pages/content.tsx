/**
 * Content: the list of CMS pages and blocks (created and deleted here) and the block editor. The
 * editor works without script like every screen: one form whose buttons preview, add, move and
 * remove blocks (the draft comes back with the preview, nothing saved) or publish it; a refused
 * block comes back with what was typed and the reason beside its field.
 */
import type { Context } from 'hono'
import type { Block } from '../content-blocks'
import type { AdminEnv } from '../env'
import type { MediaItem } from '../media'
import { can } from '../roles'
import { BlockEditor, BlockPreview } from './block-editor'
import { Confirm, Field, PostForm, Toggle, Unfold } from './components'
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
      <Toggle label="Published" name="is_active" defaultChecked />
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
        <Toggle label="Published" name="is_active" defaultChecked={item.is_active} />
        <BlockEditor blocks={view.blocks} media={view.media} mayEdit={mayEdit} />
      </PostForm>
      <BlockPreview html={view.preview} />
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
