// A malformed answer from /api becomes an ApiError with a clear message, never a crash or a
// silently wrong value.
import { describe, expect, it } from 'vitest'
import { ApiError, api, MSG_BAD_CONTENT_TYPE, MSG_WRONG_FORMAT } from '../../../../client/api'

const answer = (body: string, type = 'application/json', status = 200) =>
  (async () => new Response(body, { status, headers: { 'content-type': type } })) as unknown as typeof fetch

describe('a malformed answer', () => {
  it.each([
    ['an HTML error page', answer('<h1>502</h1>', 'text/html', 502), MSG_BAD_CONTENT_TYPE],
    ['an empty body', answer(''), MSG_WRONG_FORMAT],
    ['JSON that does not parse', answer('{"code":200,'), MSG_WRONG_FORMAT],
    ['JSON without an envelope', answer('[1,2]'), MSG_WRONG_FORMAT],
    ['a bare JSON value', answer('"ok"'), MSG_WRONG_FORMAT],
    ['null', answer('null'), MSG_WRONG_FORMAT],
  ])('%s rejects with ApiError', async (_name, fetchFn, message) => {
    const err = await api('cart/totals', { fetch: fetchFn }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).message).toBe(message)
  })

  it('an error envelope resolves (the caller reads its code)', async () => {
    await expect(
      api('cart/totals', { fetch: answer('{"code":500,"result":"boom"}', undefined, 500) }),
    ).resolves.toEqual({
      code: 500,
      result: 'boom',
    })
  })
})
