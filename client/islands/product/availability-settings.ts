/** The availability settings the product form applies: whether out-of-stock products (and variants) are listed. */
import { FLAGS } from '@shared/config/flags'

export const AVAILABILITY = { listOutOfStock: FLAGS.listOutOfStockProducts }
