// Generated from docs/openapi.json by `npm run generate -w client`; do not edit by hand.
import type { Id } from '../ids.js';

export interface paths {
    "/catalog/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List catalog products, newest first */
        get: operations["listProducts"];
        put?: never;
        /** Create a catalog product */
        post: operations["createProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/products/{productId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a catalog product */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/products/{productId}/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the prices of a catalog product, newest first */
        get: operations["listPrices"];
        put?: never;
        /** Create a price of a catalog product */
        post: operations["createPrice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/products/{productId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a catalog product active or inactive */
        put: operations["setProductStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List customers, newest first */
        get: operations["listCustomers"];
        put?: never;
        /** Create a customer */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{customerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a customer */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events of the last 90 days, newest first, by type, object and creation time */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an event with exactly the data its webhook deliveries carry */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{eventId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the deliveries of an event to every endpoint, redeliveries included, newest first */
        get: operations["listEventDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List invoices, newest first, optionally by status and customer */
        get: operations["listInvoices"];
        put?: never;
        /** Create a draft invoice with the next invoice number */
        post: operations["createInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an invoice */
        get: operations["getInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/clear-pay-link-declines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Forget the pay link's declines (the link's and the invoice's count), so it takes payments again */
        post: operations["clearPayLinkDeclines"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/emails": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the emails the invoice sent its customer and additional addresses, newest first */
        get: operations["listInvoiceEmails"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/emails/{emailId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one of the invoice’s emails, with what the sandbox rendered instead of sending it */
        get: operations["getInvoiceEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/issue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a draft invoice (emits invoices.InvoiceSent); one of total 0 is paid as it is issued (then emits invoices.InvoicePaid) */
        post: operations["issueInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record an out-of-band payment (emits invoices.InvoicePaid when paid in full) */
        post: operations["recordInvoicePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/rotate-url-slug": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the pay-link slug; the old one stops working at once */
        post: operations["rotateInvoiceUrlSlug"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send an issued or partially paid invoice again (emits invoices.InvoiceSent, resend true) */
        post: operations["sendInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Void a draft or issued invoice */
        post: operations["voidInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/portal-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mint a link that opens the merchant portal once, for a short time (returns the link, this once) */
        post: operations["createPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/portal-sessions/{portalSessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a portal session and its link at once */
        delete: operations["revokePortalSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/processor-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the merchant's processor account and its state */
        get: operations["getProcessorAccount"];
        put?: never;
        /** Open the merchant's processor account, or reuse it, and answer a link that onboards the merchant onto it */
        post: operations["linkProcessorAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints that are not deleted, newest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Register a webhook endpoint (returns its signing secret, this once) */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook endpoint; its pending deliveries end without further attempts */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Change url, name, event types or status (active, disabled) of a webhook endpoint */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the deliveries of an endpoint with their attempts, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/deliveries/{webhookDeliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver an event again as a new delivery linked to the original */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Redeliver, in the background, the exhausted deliveries of a window of up to 90 days, once per event */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/recoveries/{recoveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a recovery's status and counts as it progresses */
        get: operations["getWebhookRecovery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret; the previous one is invalid at once */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test delivery of sample data of an event type, marked by Merchant-Webhook-Test: true */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The hosted pay page; open it as /pay#<invoiceUrlSlug> */
        get: operations["servePayPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay/checkout-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Public: open Stripe's hosted Checkout for the amount remaining of the invoice a pay-link slug leads to (production only) */
        post: operations["createCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay/invoice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Public: the invoice a pay-link slug leads to, as its payer sees it */
        post: operations["getPayInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Public: pay the amount remaining of the invoice a pay-link slug leads to (sandbox only) */
        post: operations["payInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List payments, newest first, by status, customer and creation time */
        get: operations["listPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a payment */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{paymentId}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the refunds of a payment, newest first */
        get: operations["listRefunds"];
        put?: never;
        /** Refund part or all of what is left of a payment: at once in the sandbox, `pending` until Stripe confirms it in production */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{paymentId}/refunds/{refundId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a refund of a payment (only under its own payment) */
        get: operations["getRefund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/assets/{asset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The portal's script or stylesheet by its content-hashed name, cached for a year */
        get: operations["servePortalAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Public: open a portal link, once, for the session's bearer token */
        post: operations["exchangePortalLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{portalSessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant portal; open the link a portal session gives, /portal/{id}#<token> */
        get: operations["servePortalPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/processors/stripe/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Public: Stripe's Connect webhook, verified by its Stripe-Signature (production only) */
        post: operations["receiveStripeEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox only: charge a test card or bank account (emits PaymentCreated or PaymentDeclined) */
        post: operations["createSandboxPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/payments/{paymentId}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox only: refund part or all of what is left of a payment (emits PaymentRefunded) */
        post: operations["refundSandboxPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/payments/{paymentId}/return": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox only: return a bank payment as its bank would (emits PaymentReturned) */
        post: operations["returnSandboxPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox only: pay out an amount to the merchant (emits payouts.PayoutCreated) */
        post: operations["createSandboxPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payments.PaymentCreated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment succeeds: on the pay page, or through the sandbox routes
         * @description Sent to every active webhook endpoint subscribed to `payments.PaymentCreated`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["paymentCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payments.PaymentDeclined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment attempt is declined
         * @description Sent to every active webhook endpoint subscribed to `payments.PaymentDeclined`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["paymentDeclinedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payments.PaymentRefunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment is refunded, in full or in part: one event per refund
         * @description Sent to every active webhook endpoint subscribed to `payments.PaymentRefunded`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["paymentRefundedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payments.PaymentReturned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A bank payment is returned by the bank
         * @description Sent to every active webhook endpoint subscribed to `payments.PaymentReturned`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["paymentReturnedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payouts.PayoutCreated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payout is created
         * @description Sent to every active webhook endpoint subscribed to `payouts.PayoutCreated`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["payoutCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoices.InvoiceSent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An invoice is issued (resend false) or sent again (resend true)
         * @description Sent to every active webhook endpoint subscribed to `invoices.InvoiceSent`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["invoiceSentWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoices.InvoicePaid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An invoice is paid in full
         * @description Sent to every active webhook endpoint subscribed to `invoices.InvoicePaid`, signed with the endpoint's secret. Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.
         */
        post: operations["invoicePaidWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        CatalogProduct: {
            /** @example prod_01h455vb4pex5vsknk084sn02q */
            productId: Id<"prod">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            name: string;
            /** @enum {string} */
            status: "active" | "inactive";
            active: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            description?: string;
        };
        CheckoutSessionView: {
            /** @description Stripe's hosted Checkout page for the amount remaining: send the payer there. */
            checkoutUrl: string;
            /**
             * Format: date-time
             * @description After this the page takes no payment; ask for a new one.
             */
            expiresAt: string;
        };
        Customer: {
            /** @example cust_01h455vb4pex5vsknk084sn02q */
            customerId: Id<"cust">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            name: string;
            email: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "validation_error" | "invalid_json" | "idempotency_key_required" | "unauthorized" | "forbidden" | "not_found" | "invalid_state" | "idempotency_in_progress" | "payment_in_progress" | "limit_exceeded" | "endpoint_unhealthy" | "portal_link_used" | "portal_session_expired" | "portal_session_revoked" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "rate_limited" | "internal_error" | "service_unavailable" | "bad_request";
                message: string;
                requestId?: string;
                details?: {
                    path: string;
                    message: string;
                }[];
            };
        };
        Event: {
            /** @example evt_01h455vb4pex5vsknk084sn02q */
            eventId: Id<"evt">;
            /** @enum {string} */
            type: "payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            objectId: Id<"inv" | "pmt" | "po"> | null;
            objectVersion: number | null;
            /** @description Exactly the payload the event’s webhook deliveries carry as their body’s `data`. */
            data: {
                [key: string]: string | number | boolean | null;
            };
        };
        EventWebhookDelivery: {
            /** @example whkdel_01h455vb4pex5vsknk084sn02q */
            webhookDeliveryId: Id<"whkdel">;
            /** @example whk_01h455vb4pex5vsknk084sn02q */
            webhookEndpointId: Id<"whk">;
            /** @example evt_01h455vb4pex5vsknk084sn02q */
            eventId: Id<"evt">;
            /** @enum {string} */
            eventType: "payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid";
            /** @enum {string} */
            status: "pending" | "succeeded" | "exhausted";
            attemptCount: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            lastAttemptAt: string | null;
            redeliveredFromId: Id<"whkdel"> | null;
            attempts: components["schemas"]["WebhookDeliveryAttempt"][];
            sequence: number | null;
            objectVersion: number | null;
        };
        Invoice: {
            /** @example inv_01h455vb4pex5vsknk084sn02q */
            invoiceId: Id<"inv">;
            /** @example INV-000001 */
            invoiceNumber: string;
            /** @description Secret pay-link token; never log or expose it publicly. */
            invoiceUrlSlug: string;
            idempotencyKey: string;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @example cust_01h455vb4pex5vsknk084sn02q */
            customerId: Id<"cust">;
            currentRevisionNumber: number;
            /** @enum {string} */
            status: "draft" | "issued" | "partially_paid" | "paid" | "void";
            /** @enum {string} */
            currency: "USD" | "CAD";
            lineItems: components["schemas"]["LineItem"][];
            productTotal: components["schemas"]["Money"];
            total: components["schemas"]["Money"];
            amountPaid: components["schemas"]["Money"];
            amountRemaining: components["schemas"]["Money"];
            acceptedPaymentMethods: ("card" | "bank_account")[];
            additionalNotificationEmails: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            dueDate?: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            paidAt?: string;
            notes?: string;
            metadata?: {
                [key: string]: string;
            };
        };
        InvoicePaidData: {
            /** @example inv_01h455vb4pex5vsknk084sn02q */
            invoiceId: Id<"inv">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @example cust_01h455vb4pex5vsknk084sn02q */
            customerId: Id<"cust">;
            /** @example INV-000042 */
            invoiceNumber: string;
            /** @description The invoice total; 0 for an invoice of total 0, paid as it is issued. */
            amount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when it was paid in full.
             */
            paidAt: string;
        };
        InvoicePaidDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "invoices.InvoicePaid";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["InvoicePaidData"];
        };
        InvoiceSentData: {
            /** @example inv_01h455vb4pex5vsknk084sn02q */
            invoiceId: Id<"inv">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @example cust_01h455vb4pex5vsknk084sn02q */
            customerId: Id<"cust">;
            /** @example INV-000042 */
            invoiceNumber: string;
            /** @description false when the invoice is issued, true when it is sent again. */
            resend: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the change the event reports happened.
             */
            occurredAt: string;
        };
        InvoiceSentDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "invoices.InvoiceSent";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["InvoiceSentData"];
        };
        LineItem: {
            /** @constant */
            kind: "product_charge";
            /** @example prod_01h455vb4pex5vsknk084sn02q */
            productId: Id<"prod">;
            /** @example price_01h455vb4pex5vsknk084sn02q */
            priceId: Id<"price">;
            description: string;
            quantity: number;
            unitAmount: number;
            lineTotal: number;
        } | {
            /** @constant */
            kind: "manual_adjustment";
            /** @enum {string} */
            adjustmentType: "tax" | "shipping" | "fee" | "other";
            description: string;
            /** @constant */
            quantity: 1;
            unitAmount: number;
            lineTotal: number;
        };
        LinkedProcessorAccount: {
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @description `stripe` in production, `sandbox` in the sandbox. */
            processor: string;
            /** @description The processor's id of the account: Stripe's connected account id (`acct_…`). */
            processorAccountId: string;
            /**
             * @description `pending` until onboarding is finished and verified; `active` when the account may take payments and pay out; `restricted` when the processor stopped charges or payouts until something is fixed. It follows the processor: read it again after the merchant comes back.
             * @enum {string}
             */
            state: "pending" | "active" | "restricted";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
            /** @description Send the merchant's browser here to onboard (or finish onboarding) its account. It works once and for a few minutes; every call of this route gives a fresh one. In the sandbox it is your `returnUrl`: there is nothing to onboard. */
            onboardingUrl: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            onboardingUrlExpiresAt: string;
        };
        Money: {
            amount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
        };
        PayInvoiceResult: {
            payment: components["schemas"]["PayPaymentView"];
            invoice: components["schemas"]["PayInvoiceView"];
        };
        PayInvoiceView: {
            merchantName: string;
            invoiceNumber: string;
            /** @enum {string} */
            status: "issued" | "partially_paid" | "paid" | "void";
            /** @enum {string} */
            currency: "USD" | "CAD";
            lineItems: {
                description: string;
                quantity: number;
                unitAmount: number;
                lineTotal: number;
            }[];
            productTotal: components["schemas"]["Money"];
            total: components["schemas"]["Money"];
            amountPaid: components["schemas"]["Money"];
            amountRemaining: components["schemas"]["Money"];
            dueDate: string | null;
            paidAt: string | null;
            acceptedPaymentMethods: ("card" | "bank_account")[];
            /**
             * @description Where the payer gives payment details: `pay_page` on this page (the sandbox, with its test cards and accounts, `POST /pay/payments`), `processor_checkout` on Stripe's hosted Checkout (production, `POST /pay/checkout-sessions`).
             * @enum {string}
             */
            payOn: "pay_page" | "processor_checkout";
        };
        PayPaymentView: {
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            /** @enum {string} */
            status: "completed" | "declined";
            amount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /** @enum {string} */
            paymentMethodType: "card" | "bank_account";
            /** @description The same for every decline: the processor's reason is shown to the merchant only (GET /payments/{paymentId}, payments.PaymentDeclined). */
            declineCode: "payment_declined" | null;
            /** @description The same for every decline, whatever the reason. */
            declineMessage: "The payment was declined. Check the details you entered, or use another card or bank account." | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
        };
        Payment: {
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @example cust_01h455vb4pex5vsknk084sn02q */
            customerId: Id<"cust">;
            invoiceId: Id<"inv"> | null;
            amount: number;
            amountRefunded: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /** @enum {string} */
            status: "pending" | "authorized" | "captured" | "completed" | "voided" | "refunded" | "declined" | "returned";
            /** @enum {string} */
            paymentMethodType: "card" | "bank_account";
            processor: string;
            processorReferenceId: string;
            /** @description Why the processor declined; null unless declined. */
            declineCode: string | null;
            declineMessage: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
        };
        PaymentCreatedData: {
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            /**
             * @description The processor's id of the card or account charged: a `pmi_…` TypeID in the sandbox, Stripe's PaymentMethod `pm_…` in production.
             * @example pmi_01h455vb4pex5vsknk084sn02q
             */
            paymentInstrumentId: string;
            /** @description The price paid for; null for the payment of an invoice (an invoice is not one price). */
            priceId: Id<"price"> | null;
            /**
             * @description The processor that made the change: `sandbox` for simulated payments, `stripe` in production.
             * @example sandbox
             */
            processor: string;
            /** @example cust_01h455vb4pex5vsknk084sn02q */
            customerId: Id<"cust">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            amount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the change the event reports happened.
             */
            occurredAt: string;
        };
        PaymentCreatedDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "payments.PaymentCreated";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["PaymentCreatedData"];
        };
        PaymentDeclinedData: {
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /**
             * @description The processor that made the change: `sandbox` for simulated payments, `stripe` in production.
             * @example sandbox
             */
            processor: string;
            /**
             * @description The processor's decline code (docs/sandbox-testing.md lists the sandbox's).
             * @example card_declined
             */
            declineCode: string;
            declineMessage: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the change the event reports happened.
             */
            occurredAt: string;
        };
        PaymentDeclinedDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "payments.PaymentDeclined";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["PaymentDeclinedData"];
        };
        PaymentMethodDetails: {
            /** @constant */
            type: "card";
            number: string;
            expMonth: number;
            expYear: number;
            cvc: string;
        } | {
            /** @constant */
            type: "bank_account";
            routingNumber: string;
            accountNumber: string;
        };
        PaymentRefundedData: {
            /** @example refund_01h455vb4pex5vsknk084sn02q */
            refundId: Id<"refund">;
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @description What this one refund gave back. */
            refundedAmount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /** @description The processor's own id of the refund or return. */
            processorReferenceId: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the change the event reports happened.
             */
            occurredAt: string;
        };
        PaymentRefundedDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "payments.PaymentRefunded";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["PaymentRefundedData"];
        };
        PaymentReturnedData: {
            /** @example ret_01h455vb4pex5vsknk084sn02q */
            returnId: Id<"ret">;
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @description What had not been refunded before the return. */
            returnedAmount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /** @description The processor's own id of the refund or return. */
            processorReferenceId: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the change the event reports happened.
             */
            occurredAt: string;
        };
        PaymentReturnedDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "payments.PaymentReturned";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["PaymentReturnedData"];
        };
        Payout: {
            /** @example po_01h455vb4pex5vsknk084sn02q */
            payoutId: Id<"po">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @example pacct_01h455vb4pex5vsknk084sn02q */
            payoutAccountId: Id<"pacct">;
            processor: string;
            grossAmount: number;
            feeAmount: number;
            netAmount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
        };
        PayoutCreatedData: {
            /** @example po_01h455vb4pex5vsknk084sn02q */
            payoutId: Id<"po">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /**
             * @description Where the payout goes: the merchant's simulated `pacct_…` account in the sandbox, the Stripe payout's destination `ba_…` in production.
             * @example pacct_01h455vb4pex5vsknk084sn02q
             */
            payoutAccountId: string;
            /**
             * @description The processor that made the change: `sandbox` for simulated payments, `stripe` in production.
             * @example sandbox
             */
            processor: string;
            grossAmount: number;
            feeAmount: number;
            netAmount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the change the event reports happened.
             */
            occurredAt: string;
        };
        PayoutCreatedDelivery: {
            /**
             * @description The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.
             * @example whkdel_01h455vb4pex5vsknk084sn02q
             */
            id: Id<"whkdel">;
            /** @constant */
            type: "payouts.PayoutCreated";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z: when the delivery was created.
             */
            createdAt: string;
            data: components["schemas"]["PayoutCreatedData"];
        };
        PortalExchange: {
            /** @description The portal's bearer for its calls until the session ends; never put it in a URL. */
            sessionToken: string;
            portalSession: components["schemas"]["PortalSession"];
        };
        PortalSession: {
            /** @example psn_01h455vb4pex5vsknk084sn02q */
            portalSessionId: Id<"psn">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @enum {string} */
            scope: "read" | "manage";
            allowedOrigins: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @description When the link was opened; a link opens once.
             */
            exchangedAt?: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            revokedAt?: string;
        };
        PortalSessionWithUrl: {
            /** @example psn_01h455vb4pex5vsknk084sn02q */
            portalSessionId: Id<"psn">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @enum {string} */
            scope: "read" | "manage";
            allowedOrigins: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @description When the link was opened; a link opens once.
             */
            exchangedAt?: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            revokedAt?: string;
            /** @description The link to hand the merchant user: `{base_url}/portal/{portalSessionId}#<token>`. It opens once; shown on create only (and to a replay of the same Idempotency-Key). */
            url: string;
        };
        Price: {
            /** @example price_01h455vb4pex5vsknk084sn02q */
            priceId: Id<"price">;
            /** @example prod_01h455vb4pex5vsknk084sn02q */
            productId: Id<"prod">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            unitAmount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
        };
        ProcessorAccount: {
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /** @description `stripe` in production, `sandbox` in the sandbox. */
            processor: string;
            /** @description The processor's id of the account: Stripe's connected account id (`acct_…`). */
            processorAccountId: string;
            /**
             * @description `pending` until onboarding is finished and verified; `active` when the account may take payments and pay out; `restricted` when the processor stopped charges or payouts until something is fixed. It follows the processor: read it again after the merchant comes back.
             * @enum {string}
             */
            state: "pending" | "active" | "restricted";
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
        };
        Refund: {
            /** @example refund_01h455vb4pex5vsknk084sn02q */
            id: Id<"refund">;
            /** @example pmt_01h455vb4pex5vsknk084sn02q */
            paymentId: Id<"pmt">;
            amount: number;
            /** @enum {string} */
            currency: "USD" | "CAD";
            processorReferenceId: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            refundedAt: string;
            /** @enum {string} */
            paymentStatus: "pending" | "authorized" | "captured" | "completed" | "voided" | "refunded" | "declined" | "returned";
            /**
             * @description `succeeded` once the processor refunded it (the sandbox refunds at once); a production refund is `pending` until Stripe confirms it, then `succeeded` (payments.PaymentRefunded) or `failed`. `refundedAt` is when it was asked for.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
        };
        /** @description A Stripe event, exactly as Stripe sent it: the `Stripe-Signature` header signs these bytes with the platform's Connect webhook secret. Only Stripe calls this route. */
        StripeEvent: {
            /** @example evt_1QmDx2AbCdEfGhIjKlMnOpQr */
            id: string;
            /** @constant */
            object: "event";
            type: string;
            created: number;
            data: {
                object: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        StripeEventReceipt: {
            /** @constant */
            received: true;
            eventId: string;
            /**
             * @description `applied`: it changed an account or made a payment; `duplicate`: already received; `stale`: older than what was applied; `unknown_account`: no merchant linked its account; `unknown_object`: it names a payment or invoice the service never made; `recorded`: a type not mapped. All are 200.
             * @enum {string}
             */
            outcome: "applied" | "duplicate" | "stale" | "unknown_account" | "unknown_object" | "recorded";
        };
        WebhookDelivery: {
            /** @example whkdel_01h455vb4pex5vsknk084sn02q */
            webhookDeliveryId: Id<"whkdel">;
            /** @example whk_01h455vb4pex5vsknk084sn02q */
            webhookEndpointId: Id<"whk">;
            /**
             * @description The event delivered; sent as the Merchant-Webhook-Event-Id header.
             * @example evt_01h455vb4pex5vsknk084sn02q
             */
            eventId: Id<"evt">;
            /** @enum {string} */
            eventType: "payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid";
            /** @description The delivery's number in its endpoint's gapless sequence (1, 2, 3 …), sent as the Merchant-Webhook-Sequence header; null for deliveries created before sequences were kept. */
            sequence: number | null;
            /** @description The version of the event's object after the change (an invoice's currentRevisionNumber), sent as the Merchant-Webhook-Object-Version header; null when unknown. */
            objectVersion: number | null;
            /** @enum {string} */
            status: "pending" | "succeeded" | "exhausted";
            attemptCount: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            lastAttemptAt: string | null;
            redeliveredFromId: Id<"whkdel"> | null;
            attempts: components["schemas"]["WebhookDeliveryAttempt"][];
            /** @description Present (true) only on a test delivery of sample data (POST …/test), which is sent with the Merchant-Webhook-Test: true header; its eventId is in no event log. */
            test?: boolean;
        };
        WebhookDeliveryAttempt: {
            attemptNumber: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            attemptedAt: string;
            responseStatusCode: number | null;
            durationMs: number;
            errorMessage: string | null;
        };
        WebhookEndpoint: {
            /** @example whk_01h455vb4pex5vsknk084sn02q */
            webhookEndpointId: Id<"whk">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            url: string;
            name?: string;
            /** @enum {string} */
            status: "active" | "disabled" | "deleted";
            eventTypes: ("payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid")[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
            /** @description Sandbox only: how many of the next delivery attempts will still fail without a request. Absent when none will (always, in production). */
            simulateFailures?: number;
            /**
             * Format: date-time
             * @description When a delivery attempt to the endpoint last succeeded, to within 5 minutes (a test delivery counts; a sandbox simulated failure is no attempt). Absent before the first success, and again after the url changes.
             */
            lastSucceededAt?: string;
            /**
             * Format: date-time
             * @description Present while every attempt since this time has failed: the first failure after the latest success. Cleared by a success or a new url. The service never disables an endpoint for failing: every delivery keeps getting all of its attempts until the merchant disables or deletes the endpoint.
             */
            failingSince?: string;
        };
        WebhookEndpointWithSecret: {
            /** @example whk_01h455vb4pex5vsknk084sn02q */
            webhookEndpointId: Id<"whk">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            url: string;
            name?: string;
            /** @enum {string} */
            status: "active" | "disabled" | "deleted";
            eventTypes: ("payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid")[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
            /** @description Sandbox only: how many of the next delivery attempts will still fail without a request. Absent when none will (always, in production). */
            simulateFailures?: number;
            /**
             * Format: date-time
             * @description When a delivery attempt to the endpoint last succeeded, to within 5 minutes (a test delivery counts; a sandbox simulated failure is no attempt). Absent before the first success, and again after the url changes.
             */
            lastSucceededAt?: string;
            /**
             * Format: date-time
             * @description Present while every attempt since this time has failed: the first failure after the latest success. Cleared by a success or a new url. The service never disables an endpoint for failing: every delivery keeps getting all of its attempts until the merchant disables or deletes the endpoint.
             */
            failingSince?: string;
            /** @description whsec_ value; shown only on create and rotate. */
            signingSecret: string;
        };
        WebhookRecovery: {
            /** @example whkrec_01h455vb4pex5vsknk084sn02q */
            recoveryId: Id<"whkrec">;
            /** @example whk_01h455vb4pex5vsknk084sn02q */
            webhookEndpointId: Id<"whk">;
            /** @example mer_01h455vb4pex5vsknk084sn02q */
            merchantId: Id<"mer">;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            since: string;
            /**
             * Format: date-time
             * @description The end of the window as taken: the request's until, or the time of the request.
             */
            until: string;
            /**
             * @description running until the window is read; completed then; canceled when the endpoint was deleted first.
             * @enum {string}
             */
            status: "running" | "completed" | "canceled";
            /** @description Exhausted deliveries of the endpoint found in the window so far (test deliveries are not recovered). */
            exhaustedFound: number;
            /** @description New deliveries created so far, each linked to the exhausted one by redeliveredFromId: one per event. */
            redelivered: number;
            /** @description Exhausted deliveries left alone because their event already has a newer delivery to the endpoint. */
            skipped: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC date-time ending in Z
             */
            updatedAt: string;
            completedAt: string | null;
        };
    };
    responses: never;
    parameters: {
        /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
        IdempotencyKey: string;
        /**
         * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
         * @example MerchantPayments-Webhooks/1.0
         */
        WebhookUserAgent: "MerchantPayments-Webhooks/1.0";
        /**
         * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
         * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
         */
        MerchantWebhookId: Id<"whkdel">;
        /**
         * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
         * @example 1735689599
         */
        MerchantWebhookTimestamp: string;
        /**
         * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
         * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
         */
        MerchantWebhookSignature: string;
        /**
         * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
         * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
         */
        StandardWebhookId: Id<"whkdel">;
        /**
         * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
         * @example 1735689599
         */
        StandardWebhookTimestamp: string;
        /**
         * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
         * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
         */
        StandardWebhookSignature: string;
        /**
         * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
         * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
         */
        MerchantWebhookEventId: Id<"evt">;
        /**
         * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
         * @example 42
         */
        MerchantWebhookSequence: string;
        /**
         * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
         * @example 4
         */
        MerchantWebhookObjectVersion: string;
        /**
         * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
         * @example true
         */
        MerchantWebhookTest: "true";
    };
    requestBodies: never;
    headers: {
        /** @description `true` when this is the stored response of an earlier request with the same Idempotency-Key and payload. */
        "Idempotent-Replayed": "true";
        /** @description Whole seconds until the request can succeed again: the window of the limit that was passed (the per-key and per-address limits), 1 after a throttle, or the route's own limit's wait. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listProducts: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["CatalogProduct"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createProduct: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    /** @description Surrounding whitespace is removed; 1 to 200 characters must remain. */
                    name: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogProduct"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                productId: Id<"prod">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogProduct"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPrices: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                productId: Id<"prod">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Price"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPrice: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                productId: Id<"prod">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    unitAmount: number;
                    /** @enum {string} */
                    currency: "USD" | "CAD";
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Price"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setProductStatus: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                productId: Id<"prod">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    /** @enum {string} */
                    status: "active" | "inactive";
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogProduct"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Customer"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    /** @description Surrounding whitespace is removed; 1 to 200 characters must remain. */
                    name: string;
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                customerId: Id<"cust">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
                type?: "payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid";
                objectId?: Id<"inv" | "pmt" | "po">;
                /** @description ISO 8601 UTC date-time ending in Z; not after createdTo. */
                createdFrom?: string;
                /** @description ISO 8601 UTC date-time ending in Z */
                createdTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Event"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                eventId: Id<"evt">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEventDeliveries: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                eventId: Id<"evt">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["EventWebhookDelivery"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoices: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
                status?: "draft" | "issued" | "partially_paid" | "paid" | "void";
                customerId?: Id<"cust">;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Invoice"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    /** @example cust_01h455vb4pex5vsknk084sn02q */
                    customerId: Id<"cust">;
                    /** @enum {string} */
                    currency: "USD" | "CAD";
                    lineItems: ({
                        /** @constant */
                        kind: "product_charge";
                        /** @example prod_01h455vb4pex5vsknk084sn02q */
                        productId: Id<"prod">;
                        /** @example price_01h455vb4pex5vsknk084sn02q */
                        priceId: Id<"price">;
                        /** @description Surrounding whitespace is removed; 1 to 500 characters must remain. */
                        description?: string;
                        quantity: number;
                    } | {
                        /** @constant */
                        kind: "manual_adjustment";
                        /** @enum {string} */
                        adjustmentType: "tax" | "shipping" | "fee" | "other";
                        /** @description Surrounding whitespace is removed; 1 to 500 characters must remain. */
                        description: string;
                        amount: number;
                    })[];
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC date-time ending in Z
                     */
                    dueDate?: string;
                    notes?: string;
                    metadata?: {
                        [key: string]: string;
                    };
                    /**
                     * @default [
                     *       "card",
                     *       "bank_account"
                     *     ]
                     */
                    acceptedPaymentMethods?: ("card" | "bank_account")[];
                    /** @default [] */
                    additionalNotificationEmails?: string[];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoice: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    clearPayLinkDeclines: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoiceEmails: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @example eml_01h455vb4pex5vsknk084sn02q */
                            emailId: Id<"eml">;
                            /** @example inv_01h455vb4pex5vsknk084sn02q */
                            invoiceId: Id<"inv">;
                            /** @enum {string} */
                            kind: "issued" | "resent" | "paid";
                            /**
                             * Format: email
                             * @example ana@example.com
                             */
                            recipient: string;
                            /** @enum {string} */
                            recipientRole: "customer" | "additional";
                            /** @enum {string} */
                            status: "queued" | "sent" | "delivered" | "bounced" | "complained" | "suppressed" | "rate_limited" | "failed" | "captured";
                            statusReason: string | null;
                            attemptCount: number;
                            providerMessageId: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC date-time ending in Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC date-time ending in Z
                             */
                            updatedAt: string;
                            sentAt: string | null;
                        }[];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoiceEmail: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                id: Id<"inv">;
                emailId: Id<"eml">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example eml_01h455vb4pex5vsknk084sn02q */
                        emailId: Id<"eml">;
                        /** @example inv_01h455vb4pex5vsknk084sn02q */
                        invoiceId: Id<"inv">;
                        /** @enum {string} */
                        kind: "issued" | "resent" | "paid";
                        /**
                         * Format: email
                         * @example ana@example.com
                         */
                        recipient: string;
                        /** @enum {string} */
                        recipientRole: "customer" | "additional";
                        /** @enum {string} */
                        status: "queued" | "sent" | "delivered" | "bounced" | "complained" | "suppressed" | "rate_limited" | "failed" | "captured";
                        statusReason: string | null;
                        attemptCount: number;
                        providerMessageId: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC date-time ending in Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC date-time ending in Z
                         */
                        updatedAt: string;
                        sentAt: string | null;
                        rendered: {
                            subject: string;
                            text: string;
                            html: string;
                        } | null;
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    issueInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordInvoicePayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    amount: number;
                    /** @description Surrounding whitespace is removed; 1 to 200 characters must remain. */
                    reference?: string;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateInvoiceUrlSlug: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    voidInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: Id<"inv">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPortalSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description `read` sees endpoints, deliveries and events; `manage` may also change endpoints and resend.
                     * @enum {string}
                     */
                    scope: "read" | "manage";
                    /** @description How long the link and the session it opens last; default 3600 (one hour). */
                    expiresInSeconds?: number;
                    /** @description The origins whose pages may show the portal in an iframe (its `frame-ancestors`). Left out, no page may frame it. */
                    allowedOrigins?: string[];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSessionWithUrl"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokePortalSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                portalSessionId: Id<"psn">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProcessorAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                merchantId: Id<"mer">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorAccount"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    linkProcessorAccount: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The page of yours the processor sends the merchant back to when it leaves onboarding, finished or not: read the account here then (`GET …/processor-account`).
                     * @example https://dashboard.example.com/settings/payments
                     */
                    returnUrl: string;
                    /**
                     * @description The page of yours the processor sends the merchant to when its link has expired or was used: call this route again there for a fresh link.
                     * @example https://dashboard.example.com/settings/payments/reconnect
                     */
                    refreshUrl: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkedProcessorAccount"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `idempotency_in_progress`: a request with this Idempotency-Key is still at the payment processor; retry in a few seconds.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `service_unavailable`: no payment processor is available here, or it did not answer in time (nothing was changed: send the same request again after the `Retry-After` seconds). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                merchantId: Id<"mer">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["WebhookEndpoint"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description An https URL whose host is a public name with at least one dot; no user name or password, no fragment. Names under .localhost, .local, .internal, .home.arpa and .localdomain are refused. The pattern describes host names only: an IP literal host is accepted too when it is a public unicast address written as a.b.c.d or [IPv6], never a loopback, private, link-local or other reserved one.
                     * @example https://example.com/webhooks
                     */
                    url: string;
                    name?: string;
                    eventTypes: ("payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid")[];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description An https URL whose host is a public name with at least one dot; no user name or password, no fragment. Names under .localhost, .local, .internal, .home.arpa and .localdomain are refused. The pattern describes host names only: an IP literal host is accepted too when it is a public unicast address written as a.b.c.d or [IPv6], never a loopback, private, link-local or other reserved one.
                     * @example https://example.com/webhooks
                     */
                    url?: string;
                    name?: string;
                    eventTypes?: ("payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid")[];
                    /** @enum {string} */
                    status?: "active" | "disabled";
                    /**
                     * @description Sandbox only (production answers 400): the endpoint's next N delivery attempts, of any delivery or redelivery, fail without sending a request, each recorded as a failed attempt with a "Simulated failure (sandbox simulateFailures)" errorMessage. 0 clears it; a new value replaces the count left.
                     * @example 3
                     */
                    simulateFailures?: number;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                status?: "pending" | "succeeded" | "exhausted";
            };
            header?: never;
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["WebhookDelivery"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
                webhookDeliveryId: Id<"whkdel">;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC date-time ending in Z: the window's start, inclusive; within the last 90 days and not after until.
                     */
                    since: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC date-time ending in Z: the window's end, inclusive. Left out, or later than the time of the request, it is that time.
                     */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             *     - `endpoint_unhealthy`: the webhook endpoint has not shown within the last 60 minutes that it answers: no attempt to it succeeded in that time (none ever, or none since its url changed), or one failed since. Send a test delivery (`POST …/test`), fix the endpoint until the test succeeds, then retry. Not stored for the Idempotency-Key.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             *       - the endpoint had 5 recoveries started within the last 60 minutes; it takes another when the oldest of them is that old. Nothing is started or written.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookRecovery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
                recoveryId: Id<"whkrec">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                merchantId: Id<"mer">;
                webhookEndpointId: Id<"whk">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    eventType: "payments.PaymentCreated" | "payments.PaymentDeclined" | "payments.PaymentRefunded" | "payments.PaymentReturned" | "payouts.PayoutCreated" | "invoices.InvoiceSent" | "invoices.InvoicePaid";
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             *       - the endpoint had 30 test deliveries within the last 60 minutes; it takes another when the oldest of them is that old. Nothing is sent or written.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    servePayPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCheckoutSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The invoiceUrlSlug from the pay link. */
                    slug: string;
                    amount: number;
                    /** @enum {string} */
                    paymentMethodType: "card" | "bank_account";
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSessionView"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `idempotency_in_progress`: a request with this Idempotency-Key is still at the payment processor; retry in a few seconds.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `service_unavailable`: no payment processor is available here, or it did not answer in time (nothing was changed: send the same request again after the `Retry-After` seconds). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPayInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The invoiceUrlSlug from the pay link. */
                    slug: string;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayInvoiceView"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The invoiceUrlSlug from the pay link. */
                    slug: string;
                    amount: number;
                    paymentMethod: components["schemas"]["PaymentMethodDetails"];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayInvoiceResult"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `idempotency_in_progress`: a request with this Idempotency-Key is still at the payment processor; retry in a few seconds.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             *       - this pay link had 5 declined payments within the last 60 minutes, or the invoice 20 through all its pay links; it takes payments again when the oldest of them is 60 minutes old. A new slug (`POST /invoices/{id}/rotate-url-slug`) starts its link's count afresh; `POST /invoices/{id}/clear-pay-link-declines` clears both. Nothing is charged or written.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `service_unavailable`: no payment processor is available here, or it did not answer in time (nothing was changed: send the same request again after the `Retry-After` seconds). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
                status?: "pending" | "authorized" | "captured" | "completed" | "voided" | "refunded" | "declined" | "returned";
                customerId?: Id<"cust">;
                /** @description ISO 8601 UTC date-time ending in Z; not after createdTo. */
                createdFrom?: string;
                /** @description ISO 8601 UTC date-time ending in Z */
                createdTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Payment"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                paymentId: Id<"pmt">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRefunds: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                paymentId: Id<"pmt">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Refund"][];
                        page: {
                            hasMore: boolean;
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                paymentId: Id<"pmt">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    amount?: number;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `idempotency_in_progress`: a request with this Idempotency-Key is still at the payment processor; retry in a few seconds.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `service_unavailable`: no payment processor is available here, or it did not answer in time (nothing was changed: send the same request again after the `Retry-After` seconds). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRefund: {
        parameters: {
            query: {
                merchantId: Id<"mer">;
            };
            header?: never;
            path: {
                paymentId: Id<"pmt">;
                refundId: Id<"refund">;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    servePortalAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The hashed name of the script or stylesheet the page links, e.g. portal-3Jw1x9QzY0aB.js. */
                asset: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                    "text/css": string;
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exchangePortalLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The part of the link after `#`. */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalExchange"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `portal_link_used`: the link was already opened: a link opens once. Ask the merchant app for a new one.
             *     - `portal_session_expired`: the link is past its `expiresAt`.
             *     - `portal_session_revoked`: the session was revoked, or the API key that made it was revoked or expired.
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    servePortalPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The portal session id (psn_…) of the link. Any other value of at most 256 characters gets the same page, framed by nobody, which then says the link is not valid; a longer one is a 404 `not_found`. */
                portalSessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveStripeEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StripeEvent"];
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StripeEventReceipt"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests from one address to the pay page and its routes: more than 100 per 60 seconds (`Retry-After: 60`).
             *       - requests to this route from all payers together: more than 20 a second (bursts of 40) (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSandboxPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    /** @example cust_01h455vb4pex5vsknk084sn02q */
                    customerId: Id<"cust">;
                    amount: number;
                    /** @enum {string} */
                    currency: "USD" | "CAD";
                    paymentMethod: components["schemas"]["PaymentMethodDetails"];
                    /** @example prod_01h455vb4pex5vsknk084sn02q */
                    productId?: Id<"prod">;
                    /** @example price_01h455vb4pex5vsknk084sn02q */
                    priceId?: Id<"price">;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `idempotency_in_progress`: a request with this Idempotency-Key is still at the payment processor; retry in a few seconds.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `service_unavailable`: no payment processor is available here, or it did not answer in time (nothing was changed: send the same request again after the `Retry-After` seconds). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refundSandboxPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                paymentId: Id<"pmt">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    amount?: number;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `idempotency_in_progress`: a request with this Idempotency-Key is still at the payment processor; retry in a few seconds.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `service_unavailable`: no payment processor is available here, or it did not answer in time (nothing was changed: send the same request again after the `Retry-After` seconds). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    returnSandboxPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                paymentId: Id<"pmt">;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                };
            };
        };
        responses: {
            /** @description Succeeded. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `payment_in_progress`: a payment or refund of this invoice or payment, or a link of this processor account, is at the processor right now; retry in a few seconds.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSandboxPayout: {
        parameters: {
            query?: never;
            header: {
                /** @description Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example mer_01h455vb4pex5vsknk084sn02q */
                    merchantId: Id<"mer">;
                    /** @description The gross amount, in minor units. */
                    amount: number;
                    /** @enum {string} */
                    currency: "USD" | "CAD";
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            /**
             * @description - `validation_error`: a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or `{"path":"name","message":"must be at most 200 characters."}`. Every such rule is a keyword of the request schema or stated in its description. Besides these, a request valid by its schema is a 400 `validation_error` on the field that names another resource when that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no resource of this merchant, an archived product, a price of another product or in another currency; a `quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on `POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the exact body, made within the last 5 minutes.
             *     - `invalid_json`: the body is not valid JSON.
             *     - `idempotency_key_required`: the Idempotency-Key header is missing or not 1–255 visible ASCII characters.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unauthorized`: the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). On `POST /portal/exchange`: the token is no portal link of this environment. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `forbidden`: the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route it may not: one outside the portal, or one that changes something with a `read` session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `not_found`: the resource does not exist or belongs to another merchant, or an id in the path is malformed. */
            404: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `invalid_state`: the resource is not in a state that allows this change.
             *     - `limit_exceeded`: a per-merchant limit would be exceeded.
             */
            409: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `payload_too_large`: the body is larger than 256 KB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `unsupported_media_type`: a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `idempotency_key_reused`: this Idempotency-Key was already used with a different payload. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description - `rate_limited`: too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:
             *       - requests with this API key, counted over every route that takes a key: more than 1200 per 60 seconds in sandbox, 6000 per 60 seconds in production (`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end up to that much after the count crosses the limit.
             *       - requests to the whole environment from every merchant together: more than 100 a second (bursts of 200) in sandbox, 1000 a second (bursts of 2000) in production (`Retry-After: 1`).
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description - `internal_error`: an unexpected error; `requestId` identifies it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCreatedDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentDeclinedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentDeclinedDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentRefundedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentRefundedDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentReturnedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentReturnedDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    payoutCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutCreatedDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    invoiceSentWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceSentDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    invoicePaidWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Sent on every delivery, so you can recognise (and allow-list) our requests.
                 * @example MerchantPayments-Webhooks/1.0
                 */
                "User-Agent": components["parameters"]["WebhookUserAgent"];
                /**
                 * @description The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "Merchant-Webhook-Id": components["parameters"]["MerchantWebhookId"];
                /**
                 * @description Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.
                 * @example 1735689599
                 */
                "Merchant-Webhook-Timestamp": components["parameters"]["MerchantWebhookTimestamp"];
                /**
                 * @description `v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.
                 * @example v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e
                 */
                "Merchant-Webhook-Signature": components["parameters"]["MerchantWebhookSignature"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Id`.
                 * @example whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8
                 */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /**
                 * @description Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.
                 * @example 1735689599
                 */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.
                 * @example v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
                /**
                 * @description The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.
                 * @example evt_01jzb8c8z9a0b1c2d3e4f5g6h7
                 */
                "Merchant-Webhook-Event-Id": components["parameters"]["MerchantWebhookEventId"];
                /**
                 * @description The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.
                 * @example 42
                 */
                "Merchant-Webhook-Sequence"?: components["parameters"]["MerchantWebhookSequence"];
                /**
                 * @description The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.
                 * @example 4
                 */
                "Merchant-Webhook-Object-Version"?: components["parameters"]["MerchantWebhookObjectVersion"];
                /**
                 * @description `true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.
                 * @example true
                 */
                "Merchant-Webhook-Test"?: components["parameters"]["MerchantWebhookTest"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoicePaidDelivery"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
