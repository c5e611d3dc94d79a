/** The task queue's pure steps: a new task, whose token it carries, and which errors are shown. */
import { describe, expect, it } from 'vitest'
import { newTask } from '../../../../../client/engines/runtime/task'
import {
  resultMessage,
  shouldNotifyError,
  usesUserToken,
} from '../../../../../client/engines/runtime/task-run'
import { MSG } from '../../../../../shared/i18n/messages'

describe('newTask', () => {
  it('is unsent, GET by default, not silent, not cacheable, id from the time and the random part', () => {
    expect(newTask({ url: '/api/x' }, 42, 'ab')).toEqual({
      task_id: '42-ab',
      url: '/api/x',
      auth: undefined,
      payload: { method: 'GET' },
      transmited: false,
      transmited_at: null,
      callback_event: undefined,
      silent: false,
      acknowledged: false,
      is_result_cacheable: false,
      created_at: 42,
      updated_at: 42,
    })
  })
})

describe('task steps', () => {
  it('a task carries the user token when it asks for auth or has a {{token}} placeholder', () => {
    expect(usesUserToken({ url: '/api/x', auth: true })).toBe(true)
    expect(usesUserToken({ url: '/api/x?token={{token}}' })).toBe(true)
    expect(usesUserToken({ url: '/api/x' })).toBe(false)
  })
  it('an error text is a string result, else result/message/errorMessage of an object', () => {
    expect(resultMessage('x')).toBe('x')
    expect(resultMessage({ message: 'm' })).toBe('m')
    expect(resultMessage({ errorMessage: 'e' })).toBe('e')
    expect(resultMessage({ result: 3 })).toBeNull()
    expect(resultMessage(null)).toBeNull()
  })
  it('errors of silent tasks and suppressed phrases are not shown', () => {
    expect(shouldNotifyError({ silent: false }, 'Boom')).toBe(true)
    expect(shouldNotifyError({ silent: true }, 'Boom')).toBe(false)
    expect(shouldNotifyError({ silent: false }, null)).toBe(false)
    expect(shouldNotifyError({ silent: false }, `The ${MSG.productNotAvailableFragment}`)).toBe(false)
  })
})
