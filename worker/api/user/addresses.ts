/**
 * POST /api/user/addresses {address, makeDefault?}: adds one address to the signed-in customer's
 * address book (checkout's "Save this address").
 * - The book is always the token's customer's: a `customer_id` of anyone else is refused (403), an
 *   `id` that is not one of the caller's addresses is unknown (404), and an `id` of the caller's own
 *   changes nothing (the entry is answered as it is).
 * - The address passes the same validator as the account's address form.
 * - Saving an address the book already holds (same name, street, city, postcode, country and
 *   phone, ignoring case and spacing) writes nothing and answers the saved entry, so a retried save
 *   never makes a second copy.
 * - At most MAX_ADDRESSES addresses per customer, checked in the inserting statement itself (two
 *   saves racing for the last place cannot both take it); beyond: 409 naming the limit.
 * - The first address of a book becomes its default shipping and billing address; `makeDefault`
 *   makes a new one the default in the same batch (the others lose the flag).
 */
import { type Address, AddressSchema, MAX_ADDRESSES } from '@shared/schemas/user'
import type { Context } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, ok } from '../../platform/http'
import { FORBIDDEN, requireCustomer } from '../auth/guard'
import { addressDoc, listAddresses } from './repo'

export const SaveAddressBodySchema = z.object({
  address: AddressSchema,
  makeDefault: z.boolean().optional(),
})

const BOOK_FULL = `Your address book is full (at most ${MAX_ADDRESSES} addresses). Remove one in your account to save this one.`

/** What makes two saved addresses the same place and person (case and spacing ignored). */
function sameness(a: Address): string {
  const norm = (v: unknown) =>
    String(v ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase()
  return JSON.stringify([
    norm(a.firstname),
    norm(a.lastname),
    a.street.map(norm).filter(Boolean),
    norm(a.city),
    norm(a.postcode).replace(/\s/g, ''),
    norm(a.country_id),
    norm(a.telephone).replace(/[^\d+]/g, ''),
  ])
}

type SavedAddress = Address & { id: number; customer_id: number }

export async function saveAddress(c: Context<AppEnv>, body: z.output<typeof SaveAddressBodySchema>) {
  const me = await requireCustomer(c)
  const { address, makeDefault } = body
  if (address.customer_id !== undefined && address.customer_id !== me.id) fail(403, FORBIDDEN)
  const db = c.env.DB
  const book: SavedAddress[] = (await listAddresses(db, me.id)).map((r) => ({
    ...(JSON.parse(r.doc) as Address),
    id: r.id,
    customer_id: r.customer_id,
  }))
  if (address.id !== undefined) {
    const own = book.find((a) => a.id === address.id)
    return own
      ? ok(c, { address: own, saved: false })
      : fail(404, `No address ${address.id} in your address book.`)
  }
  const twin = book.find((a) => sameness(a) === sameness(address))
  if (twin) return ok(c, { address: twin, saved: false })
  const first = book.length === 0
  const isDefault = first || makeDefault === true
  const doc = addressDoc({ ...address, default_shipping: isDefault, default_billing: isDefault })
  const statements: D1PreparedStatement[] = []
  if (isDefault && !first)
    // Only when the insert below takes place: the statement order is the batch's (one transaction).
    statements.push(
      db
        .prepare(
          `UPDATE customer_addresses SET doc = json_set(doc, '$.default_shipping', json('false'), '$.default_billing', json('false'))
           WHERE customer_id = ?1 AND (SELECT count(*) FROM customer_addresses WHERE customer_id = ?1) < ?2`,
        )
        .bind(me.id, MAX_ADDRESSES),
    )
  statements.push(
    db
      .prepare(
        `INSERT INTO customer_addresses (customer_id, doc)
         SELECT ?1, ?2 WHERE (SELECT count(*) FROM customer_addresses WHERE customer_id = ?1) < ?3
         RETURNING id`,
      )
      .bind(me.id, doc, MAX_ADDRESSES),
  )
  const results = await db.batch<{ id: number }>(statements)
  const id = results.at(-1)?.results[0]?.id
  if (id === undefined) return fail(409, BOOK_FULL)
  return ok(c, { address: { ...(JSON.parse(doc) as Address), id, customer_id: me.id }, saved: true })
}
