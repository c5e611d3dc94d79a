// Helpers for the content tests: a picture uploaded to the media library as a browser sends the
// form (multipart, with its length), an hour's upload allowance used up, and the shop's and the
// editor's rendering of a page's content.
import { env, SELF } from 'cloudflare:test'
import { SAMPLE_JPEG } from '../../helpers/images'
import type { Session } from './operator'

let n = 0

/** A JPEG no other test uploads (the sample with a trailing byte of its own: a new hash). */
export const freshJpeg = () => {
  const bytes = new Uint8Array(SAMPLE_JPEG.length + 2)
  bytes.set(SAMPLE_JPEG)
  bytes.set([++n % 256, Math.floor(Math.random() * 256)], SAMPLE_JPEG.length)
  return bytes
}

/**
 * Records 120 uploads by `email` this hour in the audit (the hour's allowance, library and product
 * photographs together), each the action `action(i)` names, as if made through the forms.
 */
export const usedUploadAllowance = (email: string, action: (i: number) => string, target: string) => {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ')
  return env.DB.batch(
    Array.from({ length: 120 }, (_, i) =>
      env.DB.prepare(
        'INSERT INTO admin_audit (actor, action, target, before, after, created_at) VALUES (?, ?, ?, NULL, NULL, ?)',
      ).bind(email, action(i), target, at),
    ),
  )
}

/** Uploads `file` with `alt` to the media library as `who`. */
export const uploadPicture = (who: Session, fields: { alt?: string; file?: Uint8Array }) =>
  uploadForm(who, '/api/media', '/admin/media', fields)

/** Posts an upload form (`image`, `alt` and `more` fields) to the back office's `path` as a browser sends it. */
export async function uploadForm(
  who: Session,
  path: string,
  back: string,
  fields: { alt?: string; file?: Uint8Array; more?: [string, string][] },
) {
  const form = new FormData()
  form.set('_csrf', who.csrf)
  form.set('return_to', back)
  for (const [k, v] of fields.more ?? []) form.set(k, v)
  if (fields.alt !== undefined) form.set('alt', fields.alt)
  if (fields.file)
    form.set(
      'image',
      new File([fields.file as Uint8Array<ArrayBuffer>], 'picture.jpg', { type: 'image/jpeg' }),
    )
  const framed = new Response(form)
  const res = await SELF.fetch(`https://shop.test/admin${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: who.cookie, 'content-type': framed.headers.get('content-type') as string },
    body: await framed.arrayBuffer(),
  })
  return { status: res.status, text: await res.text() }
}

/** The HTML inside the element opened by `marker` (up to its closing </div>). */
export function inside(html: string, marker: string): string | null {
  const at = html.indexOf(marker)
  if (at < 0) return null
  const start = html.indexOf('>', at) + 1
  return html.slice(start, html.indexOf('</div>', start))
}
