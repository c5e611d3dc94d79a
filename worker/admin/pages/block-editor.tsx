/**
 * The structured block editor, one for every screen that writes rich text (CMS pages and blocks,
 * a product's description): each block's fields by its type, its ↑ ↓ and Remove buttons, the
 * "Add a block" choice and the preview of the sanitised HTML the shop shows. It sits inside the
 * screen's one form and needs no script: its buttons post the form with `_op` (`preview`, `add`,
 * `up:n`, `down:n`, `remove:n`), and the screen answers the draft with its preview, saving nothing.
 */
import { BLOCK_TYPES, type Block } from '../content-blocks'
import { Choice, Field, TextArea } from './components'

/** A picture the image block may show: its library path and alt text. */
export interface LibraryPicture {
  path: string
  alt: string
}

const LEVELS = [
  ['2', 'Large (section heading)'],
  ['3', 'Smaller (sub-heading)'],
] as const

/** The blocks edited in one multi-line box: the block's field it holds, its label and height. */
const AREAS = {
  text: { field: 'text', rows: 5, label: 'Text (a blank line starts a new paragraph)' },
  products: {
    field: 'skus',
    rows: 2,
    label: 'SKUs of the products, comma-separated (find them under Catalogue)',
  },
  html: {
    field: 'text',
    rows: 8,
    label: 'Formatted text (imported; only what the shop allows is kept, see the preview)',
  },
} as const

/** The fields of block `i`, by its type. */
function BlockFields(props: { b: Block; i: number; media: readonly LibraryPicture[] }) {
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
    case 'text':
    case 'products':
    case 'html': {
      const area = AREAS[b.type]
      return (
        <TextArea
          label={area.label}
          name={n(area.field)}
          rows={area.rows}
          defaultValue={b[area.field] ?? ''}
        />
      )
    }
  }
}

const typeLabel = (t: string) => BLOCK_TYPES.find(([v]) => v === t)?.[1] ?? t

/** The blocks with their move and remove buttons (`mayEdit`), then the choice of a block to add. */
export function BlockEditor(props: { blocks: Block[]; media: readonly LibraryPicture[]; mayEdit: boolean }) {
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
      {props.mayEdit ? (
        <fieldset aria-label="Add a block">
          <legend>Add a block</legend>
          {/* Formatted text only comes from an import: it is kept, never added. */}
          <Choice label="Type" name="add_type" options={BLOCK_TYPES.filter(([t]) => t !== 'html')} />
          <button type="submit" name="_op" value="add">
            Add block
          </button>
        </fieldset>
      ) : null}
    </>
  )
}

/** The preview: the sanitiser's output, exactly the HTML the shop shows. */
export function BlockPreview(props: { html: string; title?: string }) {
  return (
    <section className="card" aria-label={props.title ?? 'Preview'}>
      <h2>{props.title ?? 'Preview (as the shop shows it)'}</h2>
      {props.html ? (
        <div className="cms-content" data-preview="" dangerouslySetInnerHTML={{ __html: props.html }} />
      ) : (
        <p>Nothing to show yet: add a block above.</p>
      )}
    </section>
  )
}
