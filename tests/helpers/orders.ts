/**
 * Order set-up shared by the worker tests and the fuzzers: fresh client order ids and a valid
 * Indian delivery address. Pure TypeScript (no Node or workerd imports), so both sides can use it.
 */
let orderSeq = 0
/** A fresh client order id, unique across tests and runs; `tag` says which test made it. */
export function newOrderId(tag: string): string {
  orderSeq++
  return `${Date.now()}-${tag}-${orderSeq}-${Math.random().toString(16).slice(2, 10)}`
}

/** A delivery address in Bengaluru for test orders (`email` says whose; `over` changes fields). */
export function testAddress(email: string, over: Record<string, unknown> = {}) {
  return {
    firstname: 'Asha',
    lastname: 'Rao',
    street: ['12 MG Road', ''],
    city: 'Bengaluru',
    postcode: '560001',
    country_id: 'IN',
    telephone: '9876543210',
    email,
    ...over,
  }
}
