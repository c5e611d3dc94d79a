/**
 * The longest texts the shop takes in a form's field: the API refuses longer ones, and the
 * shop's own fields stop there, so a shopper never types what will be refused.
 */
export const FIELD_MAX_CHARS = { streetLine: 255, coupon: 64 } as const
