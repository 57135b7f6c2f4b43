import { defineRoute, type RouteDefinition } from '../../route-definition';
import { listResponse, MerchantQuery } from '../shared-schemas';
import { CreateCustomerBody, Customer, CustomerPathParams, ListCustomersQuery } from './schemas';

/** The customer routes. */
export const customerRoutes = {
  createCustomer: defineRoute({
    operationId: 'createCustomer',
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer',
    tag: 'Customers',
    handler: 'api/customers/create-customer',
    merchantScope: 'body',
    request: { body: CreateCustomerBody },
    successStatus: 201,
    response: Customer,
  }),
  listCustomers: defineRoute({
    operationId: 'listCustomers',
    method: 'GET',
    path: '/customers',
    summary: 'List customers, newest first',
    tag: 'Customers',
    handler: 'api/customers/list-customers',
    merchantScope: 'query',
    request: { query: ListCustomersQuery },
    successStatus: 200,
    response: listResponse(Customer),
  }),
  getCustomer: defineRoute({
    operationId: 'getCustomer',
    method: 'GET',
    path: '/customers/{customerId}',
    summary: 'Get a customer',
    tag: 'Customers',
    handler: 'api/customers/get-customer',
    merchantScope: 'query',
    request: { params: CustomerPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Customer,
  }),
} as const satisfies Record<string, RouteDefinition>;
