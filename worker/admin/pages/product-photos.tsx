/**
 * A product's photographs on its edit page, in order (the first is the main picture): each can be
 * moved up, down or to a position, or made the main picture, have its alt text changed, or be removed from the
 * product after a confirmation (the media library keeps it); new ones are uploaded or picked from
 * the library. Every form carries the revision the page was opened at. A role without the
 * catalogue permission sees the photographs without the forms.
 */
import type { Product } from '@shared/schemas/catalog'
import { type ReactNode, useContext } from 'react'
import { photographsOf } from '../product-gallery'
import { Choice, Confirm, Field, PostForm, Reply, Table } from './components'

export function ProductPhotos(props: {
  product: Product
  revision: number
  back: string
  /** The media library's pictures (path → alt text) a photograph may be picked from. */
  library?: Map<string, string> | undefined
}) {
  const { product: p, back } = props
  const photos = photographsOf(p)
  const api = `/admin/api/products/${p.id}/images`
  const revision = <input type="hidden" name="revision" value={String(props.revision)} />
  const at = (m: { image: string }) => photos.findIndex((x) => x.image === m.image)
  const which = (m: { image: string }) => <input type="hidden" name="image" value={m.image} />
  /**
   * A form of one change (`move`, `alt`) of photograph `m`, sending which photograph and the
   * revision with `fields`; `key` tells the photograph's forms of one change apart.
   */
  const change = (
    m: { image: string },
    to: { change: 'move' | 'alt'; key: string; label: string; buttonLabel?: string },
    fields: ReactNode,
  ) => (
    <PostForm
      needs="catalogue"
      action={`${api}/${to.change}`}
      back={back}
      label={to.label}
      formKey={`${to.key}:${m.image}`}
      buttonLabel={to.buttonLabel}
    >
      {which(m)}
      {revision}
      {fields}
    </PostForm>
  )
  /** A button that moves photograph `m` to `position` (1: the main picture). */
  const moveTo = (m: { image: string }, position: number, label: string, buttonLabel: string) =>
    change(
      m,
      { change: 'move', key: `to${position}`, label, buttonLabel },
      <input type="hidden" name="position" value={String(position)} />,
    )
  // A refused change of a photograph the page no longer lists (another product's, or one removed
  // meanwhile) has no row to come back to: its reason is shown above the list.
  const reply = useContext(Reply)
  const unlisted =
    reply &&
    /\/(move|remove|alt)$/.test(reply.action) &&
    reply.action.startsWith(`${api}/`) &&
    !photos.some((m) => reply.form.endsWith(`:${m.image}`))
  return (
    <section className="card" aria-labelledby="photos">
      <h2 id="photos">Photographs</h2>
      {unlisted ? (
        <p className="refused" role="alert">
          {reply.message}
        </p>
      ) : null}
      {photos.length ? (
        <Table
          rows={photos}
          rowKey={(m) => m.image}
          columns={[
            {
              header: 'Order',
              cell: (m) => (
                <>
                  {at(m) === 0 ? <strong>1 (main picture)</strong> : String(at(m) + 1)}
                  {change(
                    m,
                    { change: 'move', key: 'move', label: 'Move' },
                    <Field
                      label={<span className="sr-only">Position of photograph {at(m) + 1}</span>}
                      name="position"
                      inputMode="numeric"
                      size={3}
                      defaultValue={String(at(m) + 1)}
                    />,
                  )}
                  {at(m) > 1 ? moveTo(m, at(m), '↑', `Move photograph ${at(m) + 1} up`) : null}
                  {at(m) < photos.length - 1
                    ? moveTo(m, at(m) + 2, '↓', `Move photograph ${at(m) + 1} down`)
                    : null}
                  {at(m) === 0
                    ? null
                    : moveTo(m, 1, 'Make main picture', `Make photograph ${at(m) + 1} the main picture`)}
                </>
              ),
            },
            {
              header: 'Photograph',
              cell: (m) => <img src={`/img/310/300${m.image}`} alt={m.lab ?? ''} width={62} height={60} />,
            },
            {
              header: 'Alt text',
              cell: (m) => (
                <>
                  <span>{m.lab ?? ''}</span>
                  {change(
                    m,
                    { change: 'alt', key: 'alt', label: 'Save alt text' },
                    <Field
                      label={<span className="sr-only">Alt text of photograph {at(m) + 1}</span>}
                      name="alt"
                      maxLength={200}
                      required
                      defaultValue={m.lab ?? ''}
                    />,
                  )}
                </>
              ),
            },
            {
              header: 'Remove',
              cell: (m) => (
                <Confirm
                  needs="catalogue"
                  summary="Remove…"
                  summaryLabel={`Remove photograph ${at(m) + 1}`}
                  explanation="The photograph leaves this product's page and gallery; the media library keeps the picture."
                  action={`${api}/remove`}
                  back={back}
                  label="Remove from the product"
                  formKey={`remove:${m.image}`}
                >
                  {which(m)}
                  {revision}
                </Confirm>
              ),
            },
          ]}
        />
      ) : (
        <p>No photographs yet.</p>
      )}
      <PostForm needs="catalogue" action={api} back={back} label="Upload photograph" multipart>
        {revision}
        <Field
          label="Photograph (JPEG, PNG or WebP, at most 8 MB)"
          type="file"
          name="image"
          accept="image/jpeg,image/png,image/webp"
          required
        />
        <Field label="Alt text (what the photograph shows)" name="alt" maxLength={200} required />
      </PostForm>
      {props.library?.size ? (
        <PostForm
          needs="catalogue"
          action={`${api}/library`}
          back={back}
          label="Add from the media library"
          formKey="library"
        >
          {revision}
          <Choice
            label="Or pick a picture of the media library"
            name="path"
            options={[...props.library].map(([path, alt]) => [path, `${alt} (${path})`] as const)}
          />
          <Field label="Alt text for this product (empty: the library's)" name="alt" maxLength={200} />
        </PostForm>
      ) : null}
    </section>
  )
}
