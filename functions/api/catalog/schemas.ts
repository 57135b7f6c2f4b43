import * as z from 'zod/mini';
import { Currency, maxAmount } from '../../domain/money';
import { ProductStatus } from '../../domain/product';
import { integer } from '../../validation/integer';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { ListQuery, MerchantId, PriceId, ProductId, Timestamp } from '../shared-schemas';

export const Product = documented(
  z.strictObject({
    productId: ProductId,
    merchantId: MerchantId,
    name: text({ min: 1 }),
    status: z.enum(ProductStatus),
    active: z.boolean(),
    createdAt: Timestamp,
    description: z.optional(text()),
  }),
  { id: 'CatalogProduct' },
);

/**
 * Name and description bounds are ours (the interface asks only name ≥ 1):
 * docs/decisions/catalog-products.md.
 */
export const CreateProductBody = z.strictObject({
  merchantId: MerchantId,
  name: text({ trim: true, min: 1, max: 200 }),
  description: z.optional(text({ max: 2000 })),
});

export const SetProductStatusBody = z.strictObject({
  merchantId: MerchantId,
  status: z.enum(ProductStatus),
});

export const ProductPathParams = z.strictObject({ productId: ProductId });

export const ListProductsQuery = z.strictObject(ListQuery);

/** A price belongs to one product and one currency; amounts are integer minor units. */
export const Price = documented(
  z.strictObject({
    priceId: PriceId,
    productId: ProductId,
    merchantId: MerchantId,
    unitAmount: integer({ min: 0, max: maxAmount }),
    currency: z.enum(Currency),
    createdAt: Timestamp,
  }),
  { id: 'Price' },
);

export const CreatePriceBody = z.strictObject({
  merchantId: MerchantId,
  unitAmount: integer({ min: 0, max: maxAmount }),
  currency: z.enum(Currency),
});

export const ListPricesQuery = z.strictObject(ListQuery);
