/** The media library: pictures for pages, blocks and the home page; upload, alt text, delete. */
import { imageUrl } from '@shared/domain/image-url'
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import type { MediaItem } from '../media'
import { Confirm, Field, PostForm, Table, when } from './components'
import { renderAdmin } from './frame'

const BACK = '/admin/media'
// A photograph stored before the library kept sizes has none recorded (0).
const kb = (bytes: number) =>
  bytes > 0 ? `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-IN')} KB` : 'size unknown'

export function mediaPage(c: Context<AdminEnv>, items: MediaItem[]) {
  return renderAdmin(
    c,
    'Media library',
    <>
      <p>
        Pictures for content pages, blocks and the home page's banners (JPEG, PNG or WebP, at most 8 MB). A
        picture in use cannot be deleted.
      </p>
      <section className="card" aria-labelledby="upload">
        <h2 id="upload">Upload a picture</h2>
        <PostForm needs="content" action="/admin/api/media" back={BACK} label="Upload" multipart>
          <Field label="Picture" type="file" name="image" accept="image/jpeg,image/png,image/webp" required />
          <Field label="Alt text (what the picture shows)" name="alt" required maxLength={200} />
        </PostForm>
      </section>
      {items.length ? (
        <Table
          rows={items}
          rowKey={(m) => m.path}
          columns={[
            {
              header: 'Picture',
              cell: (m) => (
                <img src={imageUrl(m.path, 310, 300)} alt="" width={124} height={120} loading="lazy" />
              ),
            },
            {
              header: 'Alt text',
              cell: (m) => (
                <PostForm
                  needs="content"
                  action="/admin/api/media/alt"
                  formKey={m.path}
                  back={BACK}
                  label="Save"
                  buttonLabel={`Save the alt text of ${m.path}`}
                >
                  <input type="hidden" name="path" value={m.path} />
                  <Field label="Alt text" name="alt" defaultValue={m.alt} required maxLength={200} />
                </PostForm>
              ),
            },
            {
              header: 'Used in',
              cell: (m) => (m.used.length ? m.used.join(', ') : 'Nothing: it may be deleted'),
            },
            {
              header: 'File',
              cell: (m) => (
                <>
                  <code>{m.path}</code>
                  <br />
                  {kb(m.bytes)}, {when(m.created_at)}
                </>
              ),
            },
            {
              header: '',
              cell: (m) => (
                <Confirm
                  needs="content"
                  summary="Delete…"
                  summaryLabel={`Delete ${m.path}`}
                  explanation="The picture is removed from the library and the bucket; this cannot be undone."
                  action="/admin/api/media/delete"
                  formKey={m.path}
                  back={BACK}
                  label="Delete for good"
                >
                  <input type="hidden" name="path" value={m.path} />
                </Confirm>
              ),
            },
          ]}
        />
      ) : (
        <p>The library is empty.</p>
      )}
    </>,
  )
}
