/** The session's pure steps: price-tier group, device tokens kept, error text. */
import { describe, expect, it } from 'vitest'
import { userGroup } from '../../../../../client/engines/session/account-data'
import { errorText } from '../../../../../client/engines/session/deps'
import { MAX_DEVICE_TOKENS, withDeviceToken } from '../../../../../client/engines/session/device-tokens'
import type { CurrentUser } from '../../../../../client/state/user'

describe('userGroup', () => {
  const user = { email: 'a@b.c', groupToken: 'gt', group_id: 3 } as unknown as CurrentUser
  it('applies only with price tiers on, and only well-typed values', () => {
    expect(userGroup(user, true)).toEqual({ token: 'gt', id: 3 })
    expect(userGroup(user, false)).toEqual({ token: null, id: null })
    expect(userGroup(null, true)).toEqual({ token: null, id: null })
    expect(userGroup({ ...user, groupToken: 1, group_id: '3' } as unknown as CurrentUser, true)).toEqual({
      token: null,
      id: null,
    })
  })
})

describe('withDeviceToken', () => {
  it('keys by the trimmed lower-cased address, the newest last, replacing the old token', () => {
    const kept = withDeviceToken({ 'a@x.y': 'old', 'b@x.y': 'b' }, ' A@X.Y ', 'new')
    expect(Object.entries(kept)).toEqual([
      ['b@x.y', 'b'],
      ['a@x.y', 'new'],
    ])
  })
  it(`keeps at most ${MAX_DEVICE_TOKENS} addresses, dropping the oldest`, () => {
    let tokens: Record<string, string> = {}
    for (let i = 0; i < MAX_DEVICE_TOKENS + 3; i++) tokens = withDeviceToken(tokens, `u${i}@x.y`, `t${i}`)
    const keys = Object.keys(tokens)
    expect(keys).toHaveLength(MAX_DEVICE_TOKENS)
    expect(keys.at(-1)).toBe(`u${MAX_DEVICE_TOKENS + 2}@x.y`)
    expect(keys).not.toContain('u0@x.y')
  })
})

describe('errorText', () => {
  it('reads a string, errorMessage, then message, else the fallback', () => {
    expect(errorText('nope', 'f')).toBe('nope')
    expect(errorText({ errorMessage: 'e', message: 'm' }, 'f')).toBe('e')
    expect(errorText({ message: 'm' }, 'f')).toBe('m')
    expect(errorText({ message: 3 }, 'f')).toBe('f')
    expect(errorText(null, 'f')).toBe('f')
  })
})
