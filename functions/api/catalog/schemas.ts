import { Currency, maxAmount } from '../../domain/money';
import { ProductStatus } from '../../domain/product';
import { annotate, boolean, enumOf, integer, optional, strictObject, string } from '../../schema';
import { ListQuery, MerchantId, PriceId, ProductId, Timestamp } from '../shared-schemas';

export const Product = annotate(
  strictObject({
    productId: ProductId,
    merchantId: MerchantId,
    name: string({ min: 1 }),
    status: enumOf(ProductStatus),
    active: boolean(),
    createdAt: Timestamp,
    description: optional(string()),
  }),
  { id: 'CatalogProduct' },
);

/** Name and description bounds are ours (the spec gives only name ≥ 1); see docs/decisions.md. */
export const CreateProductBody = strictObject({
  merchantId: MerchantId,
  name: string({ trim: true, min: 1, max: 200 }),
  description: optional(string({ max: 2000 })),
});

export const SetProductStatusBody = strictObject({
  merchantId: MerchantId,
  status: enumOf(ProductStatus),
});

export const ProductPathParams = strictObject({ productId: ProductId });

export const ListProductsQuery = strictObject(ListQuery);

/** A price belongs to one product and one currency; amounts are integer minor units. */
export const Price = annotate(
  strictObject({
    priceId: PriceId,
    productId: ProductId,
    merchantId: MerchantId,
    unitAmount: integer({ min: 0, max: maxAmount }),
    currency: enumOf(Currency),
    createdAt: Timestamp,
  }),
  { id: 'Price' },
);

export const CreatePriceBody = strictObject({
  merchantId: MerchantId,
  unitAmount: integer({ min: 0, max: maxAmount }),
  currency: enumOf(Currency),
});

export const ListPricesQuery = strictObject(ListQuery);
