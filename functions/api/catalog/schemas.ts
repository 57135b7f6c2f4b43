import { z } from 'zod';
import { Currency, maxAmount } from '../../domain/money';
import { ProductStatus } from '../../domain/product';
import { ListQuery, MerchantId, PriceId, ProductId, Timestamp } from '../shared-schemas';

export const Product = z
  .strictObject({
    productId: ProductId,
    merchantId: MerchantId,
    name: z.string().min(1),
    status: z.enum(ProductStatus),
    active: z.boolean(),
    createdAt: Timestamp,
    description: z.string().optional(),
  })
  .meta({ id: 'CatalogProduct' });

/** Name and description bounds are ours (the spec gives only name ≥ 1); see docs/decisions.md. */
export const CreateProductBody = z.strictObject({
  merchantId: MerchantId,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
});

export const SetProductStatusBody = z.strictObject({
  merchantId: MerchantId,
  status: z.enum(ProductStatus),
});

export const ProductPathParams = z.strictObject({ productId: ProductId });

export const ListProductsQuery = z.strictObject(ListQuery);

/** A price belongs to one product and one currency; amounts are integer minor units. */
export const Price = z
  .strictObject({
    priceId: PriceId,
    productId: ProductId,
    merchantId: MerchantId,
    unitAmount: z.number().int().min(0).max(maxAmount),
    currency: z.enum(Currency),
    createdAt: Timestamp,
  })
  .meta({ id: 'Price' });

export const CreatePriceBody = z.strictObject({
  merchantId: MerchantId,
  unitAmount: z.number().int().min(0).max(maxAmount),
  currency: z.enum(Currency),
});

export const ListPricesQuery = z.strictObject(ListQuery);
