/**
 * Operator roles and what each may do: owners everything; staff run the shop day to day (orders,
 * reviews, content, stock, prices); viewers read only. Money given away (store credit, coupons),
 * customer accounts, operations, operators and changes of many products at once (a price file, a
 * bulk action: one mistake reprices the shop) are the owner's.
 */
export const ROLES = ['owner', 'staff', 'viewer'] as const
export type Role = (typeof ROLES)[number]

export type Permission =
  | 'read'
  | 'orders'
  | 'reviews'
  | 'content'
  | 'catalogue'
  | 'bulk'
  | 'money'
  | 'customers'
  | 'operations'
  | 'operators'

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: [
    'read',
    'orders',
    'reviews',
    'content',
    'catalogue',
    'bulk',
    'money',
    'customers',
    'operations',
    'operators',
  ],
  staff: ['read', 'orders', 'reviews', 'content', 'catalogue'],
  viewer: ['read'],
}

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission)
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}
