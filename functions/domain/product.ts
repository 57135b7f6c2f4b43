export const ProductStatus = { active: 'active', inactive: 'inactive' } as const;
export type ProductStatus = (typeof ProductStatus)[keyof typeof ProductStatus];

/** A catalog product as the API returns it (the API reference's Catalog product). */
export interface Product {
  readonly productId: string;
  readonly merchantId: string;
  readonly name: string;
  readonly status: ProductStatus;
  /** Mirrors `status`; the API returns both. */
  readonly active: boolean;
  readonly createdAt: string;
  readonly description?: string;
}

/** A new product is active (its states in the API reference). */
export function newProduct(input: {
  productId: string;
  merchantId: string;
  name: string;
  description?: string | undefined;
  createdAt: string;
}): Product {
  return {
    productId: input.productId,
    merchantId: input.merchantId,
    name: input.name,
    status: ProductStatus.active,
    active: true,
    createdAt: input.createdAt,
    ...(input.description === undefined ? {} : { description: input.description }),
  };
}

/**
 * Either status may follow either; setting the current status again changes nothing
 * (docs/decisions/catalog-products.md).
 */
export function withStatus(product: Product, status: ProductStatus): Product {
  return { ...product, status, active: status === ProductStatus.active };
}
