// Generated from the served OpenAPI document by openapi-typescript (npm run openapi:types). Do not edit.
export interface paths {
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders, a page at a time
         * @description Needs orders:read. Served from projections, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. Keyset paging: a cursor continues the exact filter and sort it came from.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Place an order
         * @description Needs orders:write. A customer token may only place orders for its own customer (403). Under Api-Version 2026-12-01 customerId must name an existing customer (POST /customers); under 2026-11-01 any well-formed id is a guest customer. An erased customer cannot order under either (422 unknown-customer). Each line's name and unitPrice come from the catalogue in the order currency, as they are at that moment, and stay with the order. A line naming a product that is unknown, retired, not active or without a price in the currency is 422 product-unavailable (errors name each line); a line that sends a unitPrice other than the catalogue's is 409 price-changed (errors give the current prices). A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true (at the first prices); a different body is 422. Under 2026-11-01 a key is its principal's per target (the same key on another order or job is another key); under 2026-12-01, one request across every operation.Placing reserves every line's quantity of stock, all lines or none: when a line lacks stock the answer is 409 insufficient-stock, whose errors name each short line (/lines/{i}/quantity) with what is available, and nothing is reserved. A placement that failed after it reserved stock and was given up by the service (its reservations released, after 30 s) answers a retry with 409 state-conflict: place it again under a new key.
         */
        post: operations["placeOrder"];
        delete?: never;
        /**
         * The methods /orders allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOrders"];
        /**
         * HEAD of listOrders: its headers without the body
         * @description The answer GET /orders would give, without its body.
         */
        head: operations["listOrdersHead"];
        patch?: never;
        trace?: never;
    };
    "/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        /**
         * Read an order
         * @description Needs orders:read. Always current: folded from the order history, never older than a revision already acknowledged. Another customer's order answers 404 exactly as an unknown one.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /orders/{id} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOrdersId"];
        /**
         * HEAD of getOrder: its headers without the body
         * @description The answer GET /orders/{id} would give, without its body.
         */
        head: operations["getOrderHead"];
        /**
         * Change the address (JSON Merge Patch)
         * @description Needs orders:write. Only `address` may appear. Refused with 409 state-conflict once the order has shipped or was cancelled.
         */
        patch: operations["changeOrderAddress"];
        trace?: never;
    };
    "/orders/{id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the payment of a pending order
         * @description Needs payments:write. The amount must equal the order total. The order becomes paid.
         */
        post: operations["recordPayment"];
        delete?: never;
        /**
         * The methods /orders/{id}/payments allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOrdersIdPayments"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{id}/shipments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ship a paid order
         * @description Needs shipments:write. The order must be paid; it becomes shipped.
         */
        post: operations["createShipment"];
        delete?: never;
        /**
         * The methods /orders/{id}/shipments allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOrdersIdShipments"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{id}/cancellation": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending or paid order
         * @description Needs orders:write. Cancelling a cancelled order changes nothing and answers 200; a shipped order is 409.
         */
        post: operations["cancelOrder"];
        delete?: never;
        /**
         * The methods /orders/{id}/cancellation allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOrdersIdCancellation"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        /**
         * The order's events, in order
         * @description Needs audit:read. Each event with its type, schema version (data is upcast to the current version; recordedSchemaVersion is the stored one), data, revision, global position, recorded time and metadata (principal, correlation id, causation id). Once the order's customer was erased, its CustomerErased is among them at its place in the log, and the personal data of every event reads as null. Cursor-paged.
         */
        get: operations["getOrderHistory"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /orders/{id}/history allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOrdersIdHistory"];
        /**
         * HEAD of getOrderHistory: its headers without the body
         * @description The answer GET /orders/{id}/history would give, without its body.
         */
        head: operations["getOrderHistoryHead"];
        patch?: never;
        trace?: never;
    };
    "/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List products, a page at a time
         * @description Needs catalogue:read (customer tokens have it). Retired products are left out. From the products projection: the same paging and Consistency-Token rules as GET /orders; sort by sku (default) or -updatedAt (newest change first).
         */
        get: operations["listProducts"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /products allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsProducts"];
        /**
         * HEAD of listProducts: its headers without the body
         * @description The answer GET /products would give, without its body.
         */
        head: operations["listProductsHead"];
        patch?: never;
        trace?: never;
    };
    "/products/{sku}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        /**
         * Read a product
         * @description Needs catalogue:read. Always current: folded from the product history. A retired or unknown product is 404.
         */
        get: operations["getProduct"];
        /**
         * Create or replace a product
         * @description Needs catalogue:write and a token that is not a customer's (403 otherwise, whatever its scopes). Creates the product (201, also for a SKU whose product was retired: it starts anew) or replaces the whole of it (200; a replacement that changes nothing records nothing). Placed orders keep the names and prices they were placed with.
         */
        put: operations["putProduct"];
        post?: never;
        /**
         * Retire a product
         * @description Needs catalogue:write and a token that is not a customer's. Afterwards reads answer 404 and orders cannot name it (422 product-unavailable); retiring it again is 204 too; a later PUT creates it anew. Placed orders keep their lines. A SKU that never named a product is 404.
         */
        delete: operations["retireProduct"];
        /**
         * The methods /products/{sku} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsProductsSku"];
        /**
         * HEAD of getProduct: its headers without the body
         * @description The answer GET /products/{sku} would give, without its body.
         */
        head: operations["getProductHead"];
        /**
         * Change a product (JSON Merge Patch)
         * @description Needs catalogue:write and a token that is not a customer's. {"prices":{"USD":null}} removes the USD price. A retired or unknown product is 404.
         */
        patch: operations["patchProduct"];
        trace?: never;
    };
    "/fulfilment-queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Paid orders waiting to ship, oldest payment first
         * @description Needs shipments:write and a token that is not a customer's (403 otherwise, whatever its scopes). From the fulfilment-queue projection; the same paging and Consistency-Token rules as GET /orders.
         */
        get: operations["listFulfilmentQueue"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /fulfilment-queue allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsFulfilmentQueue"];
        /**
         * HEAD of listFulfilmentQueue: its headers without the body
         * @description The answer GET /fulfilment-queue would give, without its body.
         */
        head: operations["listFulfilmentQueueHead"];
        patch?: never;
        trace?: never;
    };
    "/fulfilment-queue/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Changes of the queue: an order entered (paid) or left (shipped, cancelled)
         * @description Needs shipments:write and a token that is not a customer's (403 otherwise, whatever its scopes). A JSON long-poll: the changes after `after`, waiting up to `wait` seconds for one; continue with `next`. The changes are recorded by the fulfilment-queue projection: send a write's Consistency-Token to wait (up to 5 s) until its changes are included. An `after` or Last-Event-ID beyond the end of the log is a 400. With Accept: text/event-stream the same URL answers Server-Sent Events instead, described in x-event-stream (OpenAPI 3.1 has one 200 per operation; the stream is kept out of it so that a generated client reads the long-poll's JSON as it is): each change an event named entered or left whose id is its log position and whose data is a QueueChange; reconnecting with Last-Event-ID resumes right after it (at least once); a comment line every 15 s keeps idle connections open.
         */
        get: operations["followFulfilmentQueue"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /fulfilment-queue/changes allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsFulfilmentQueueChanges"];
        /**
         * HEAD of followFulfilmentQueue: its headers without the body
         * @description The answer GET /fulfilment-queue/changes would give, without its body.
         */
        head: operations["followFulfilmentQueueHead"];
        patch?: never;
        trace?: never;
    };
    "/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an order export
         * @description Needs exports:write. Answers 202 at once with the job; the export runs in the background (in the service, or in a process started with --role worker). A customer token exports only its own orders. A retry with the same Idempotency-Key and body returns the same job. One principal (sub and customer together) may have at most 5 exports queued or running at once: the next is 429 rate-limited, with Retry-After, until one of them ends (a retry of an accepted request is still answered with its job).
         */
        post: operations["startExport"];
        delete?: never;
        /**
         * The methods /exports allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsExports"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        /**
         * Follow a job
         * @description Needs exports:write (the jobs this principal started: its sub and customer together) or audit:read on a staff token (any job); anyone else gets 404, a customer token included whatever its scopes. Retry-After is set while the job is queued or running. After the retention (EXPORT_RETENTION_SECONDS, default 24 h) the result is removed: result becomes null and resultExpiredAt says when.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /jobs/{id} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsJobsId"];
        /**
         * HEAD of getJob: its headers without the body
         * @description The answer GET /jobs/{id} would give, without its body.
         */
        head: operations["getJobHead"];
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}/result": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        /**
         * Download the export
         * @description The file, streamed, once the job has succeeded: 409 state-conflict before (currentStatus says how far it is), 410 result-expired after the retention.
         */
        get: operations["getJobResult"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /jobs/{id}/result allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsJobsIdResult"];
        /**
         * HEAD of getJobResult: its headers without the body
         * @description The answer GET /jobs/{id}/result would give, without its body.
         */
        head: operations["getJobResultHead"];
        patch?: never;
        trace?: never;
    };
    "/stock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stock levels, a page at a time, by SKU
         * @description Needs stock:read and a token that is not a customer's (403 otherwise, whatever its scopes). From the stock projection, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. `below` keeps the SKUs whose available stock is below it. Only SKUs whose stock ever changed are listed.
         */
        get: operations["listStock"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /stock allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsStock"];
        /**
         * HEAD of listStock: its headers without the body
         * @description The answer GET /stock would give, without its body.
         */
        head: operations["listStockHead"];
        patch?: never;
        trace?: never;
    };
    "/stock/{sku}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        /**
         * A SKU's stock levels
         * @description Needs stock:read and a token that is not a customer's. Always current: folded from the SKU's stock history. Every product has stock, 0 on hand until stock is received.
         */
        get: operations["getStock"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /stock/{sku} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsStockSku"];
        /**
         * HEAD of getStock: its headers without the body
         * @description The answer GET /stock/{sku} would give, without its body.
         */
        head: operations["getStockHead"];
        patch?: never;
        trace?: never;
    };
    "/stock/{sku}/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adjust the stock on hand
         * @description Needs stock:write and a token that is not a customer's. A delta that would take onHand below what is reserved is 409 insufficient-stock (errors[0].available says what is available) and changes nothing. A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true.
         */
        post: operations["adjustStock"];
        delete?: never;
        /**
         * The methods /stock/{sku}/adjustments allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsStockSkuAdjustments"];
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
        /**
         * List customers, newest first
         * @description Needs customers:read and a staff token: the list belongs to no single customer, so a customer token is 403 whatever its scopes (it reads its own record at /customers/{id}). `email` is an exact, case-insensitive filter. Erased customers stay in the list with their personal members null, and match no email. Served from a projection, with the same Consistency-Token and cursor rules as GET /orders.
         */
        get: operations["listCustomers"];
        put?: never;
        /**
         * Create a customer
         * @description Needs customers:write and a staff token: a customer token is 403 (customers are created by staff, or by the account sign-up, not by another customer). One email belongs to one customer, compared case-insensitively, however many requests race: the others get 409 email-in-use. The id is cus_ and 32 hex digits, derived from the Idempotency-Key, so a retry lands on the same customer.
         */
        post: operations["createCustomer"];
        delete?: never;
        /**
         * The methods /customers allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsCustomers"];
        /**
         * HEAD of listCustomers: its headers without the body
         * @description The answer GET /customers would give, without its body.
         */
        head: operations["listCustomersHead"];
        patch?: never;
        trace?: never;
    };
    "/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
                id: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        /**
         * Read a customer
         * @description Needs customers:read. Always current (folded from its events). A customer token reads only its own record: another customer answers 404 exactly as an unknown one. An erased customer reads with status erased, erasedAt, and every personal member null.
         */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        /**
         * Erase a customer's personal data (GDPR art. 17)
         * @description Needs customers:erase and a staff token (a customer token is 403: erasure is done by staff on a verified request). Records the erasure, frees the email, and the customer can never order again (422 unknown-customer). Any well-formed id is erased, a guest customer that appears only on orders included; erasing again changes nothing and answers 204 too.
         */
        delete: operations["eraseCustomer"];
        /**
         * The methods /customers/{id} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsCustomersId"];
        /**
         * HEAD of getCustomer: its headers without the body
         * @description The answer GET /customers/{id} would give, without its body.
         */
        head: operations["getCustomerHead"];
        /**
         * Change a customer (JSON Merge Patch)
         * @description Needs customers:write. A customer token changes only its own record (another is 404). email, name, phone and defaultAddress may appear; defaultAddress merges member by member, null removes phone or defaultAddress. An email another customer has is 409 email-in-use, however requests race; an erased customer is 409 state-conflict (currentStatus erased).
         */
        patch: operations["changeCustomer"];
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in: an access token for an email and a password
         * @description No token needed. Answers RFC 6749 §5.1's fields: a bearer token signed like every token the service issues (sub = the account id, the role's scopes, customer_id for a customer account, account_version), lasting TOKEN_TTL_SECONDS. An unknown email, a wrong password and a disabled account get the same 401 invalid-credentials after the same work. After 5 failures for one email within 15 minutes, that email is answered 429 rate-limited (Retry-After: until the oldest of them is 15 minutes old), whatever the password, while other emails still sign in. The failures are kept in the event store, so the limit holds across every API process and restart.
         */
        post: operations["signIn"];
        delete?: never;
        /**
         * The methods /auth/login allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAuthLogin"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts, newest first
         * @description Needs accounts:admin and a token that is not a customer's. From the accounts projection; the same paging and Consistency-Token rules as GET /orders.
         */
        get: operations["listAccounts"];
        put?: never;
        /**
         * Create an account
         * @description Needs accounts:admin and a token that is not a customer's. One account per email, whatever its case (409 email-in-use). A customer account names its customer (customerId: one that exists and was not erased, else 422 unknown-customer), the other roles none. A retry with the same Idempotency-Key and the same email, role and customer returns the first response with Idempotent-Replayed: true (the password is not part of what is compared, since it is never stored).
         */
        post: operations["createAccount"];
        delete?: never;
        /**
         * The methods /accounts allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAccounts"];
        /**
         * HEAD of listAccounts: its headers without the body
         * @description The answer GET /accounts would give, without its body.
         */
        head: operations["listAccountsHead"];
        patch?: never;
        trace?: never;
    };
    "/accounts/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's own account
         * @description Any token the service issued (POST /auth/login); no scope needed. A token the service did not issue to an account (npm run token, an identity provider's) names no account: 404 not-found.
         */
        get: operations["getMyAccount"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /accounts/me allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAccountsMe"];
        /**
         * HEAD of getMyAccount: its headers without the body
         * @description The answer GET /accounts/me would give, without its body.
         */
        head: operations["getMyAccountHead"];
        patch?: never;
        trace?: never;
    };
    "/accounts/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the caller's password
         * @description Any token the service issued; no scope needed (404 for a token that names no account). The current password must be given: a wrong one is 401 invalid-credentials and counts as a failed sign-in of the account's email (429 after the limit). Afterwards every token issued to the account before is refused (401) within 5 s in every API process: sign in again.
         */
        post: operations["changeMyPassword"];
        delete?: never;
        /**
         * The methods /accounts/me/password allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAccountsMePassword"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account id, a UUID. */
                id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /**
         * Read an account
         * @description Needs accounts:admin. Always current (folded from the account's history). A customer token reads only its own account (403 for any other).
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /accounts/{id} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAccountsId"];
        /**
         * HEAD of getAccount: its headers without the body
         * @description The answer GET /accounts/{id} would give, without its body.
         */
        head: operations["getAccountHead"];
        /**
         * Change the role, disable or enable an account (JSON Merge Patch)
         * @description Needs accounts:admin and a token that is not a customer's. Only `role` and `disabled` may appear; the customer role is given only at creation and never taken away (400 validation-failed). Disabling an account, or changing its role, refuses every token issued to it before (401) within 5 s in every API process; a disabled account cannot sign in.
         */
        patch: operations["changeAccount"];
        trace?: never;
    };
    "/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The administration web app
         * @description The page of the store's administration: staff sign in (POST /auth/login) and work through this API alone. Revalidated on every load (no-cache), under a strict Content-Security-Policy. 404 while the app is not built (npm install builds it). No token needed.
         */
        get: operations["adminApp"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /admin allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAdmin"];
        /**
         * HEAD of adminApp: its headers without the body
         * @description The answer GET /admin would give, without its body.
         */
        head: operations["adminAppHead"];
        patch?: never;
        trace?: never;
    };
    "/admin/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A file of the build, named by its content hash. */
                file: string;
            };
            cookie?: never;
        };
        /**
         * A script, style sheet or icon of the administration app
         * @description Named by its content hash, so it never changes under its name: cached for a year (immutable). No token needed.
         */
        get: operations["adminAsset"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /admin/assets/{file} allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsAdminAssetsFile"];
        /**
         * HEAD of adminAsset: its headers without the body
         * @description The answer GET /admin/assets/{file} would give, without its body.
         */
        head: operations["adminAssetHead"];
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The process is up.
         * @description The process is up. No token needed.
         */
        get: operations["healthLive"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /health/live allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsHealthLive"];
        /**
         * HEAD of healthLive: its headers without the body
         * @description The answer GET /health/live would give, without its body.
         */
        head: operations["healthLiveHead"];
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stores answer and the projections have caught up once; 503 until then.
         * @description The stores answer and the projections have caught up once; 503 until then. No token needed.
         */
        get: operations["healthReady"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /health/ready allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsHealthReady"];
        /**
         * HEAD of healthReady: its headers without the body
         * @description The answer GET /health/ready would give, without its body.
         */
        head: operations["healthReadyHead"];
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Request counts and latency by route and status, projection lag. No token needed.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /metrics allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsMetrics"];
        /**
         * HEAD of metrics: its headers without the body
         * @description The answer GET /metrics would give, without its body.
         */
        head: operations["metricsHead"];
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description No token needed.
         */
        get: operations["openApi"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * The methods /openapi.json allows
         * @description No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.
         */
        options: operations["optionsOpenapiJson"];
        /**
         * HEAD of openApi: its headers without the body
         * @description The answer GET /openapi.json would give, without its body.
         */
        head: operations["openApiHead"];
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Address: {
            name: string;
            line1: string;
            line2?: string | null;
            city: string;
            postalCode: string;
            region?: string | null;
            /**
             * @description ISO 3166-1 alpha-2
             * @enum {string}
             */
            country: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "XK" | "YE" | "YT" | "ZA" | "ZM" | "ZW";
        };
        /** @description The address of a customer whose personal data was erased (DELETE /customers/{id}): every member null. */
        ErasedAddress: {
            name: null;
            line1: null;
            line2: null;
            city: null;
            postalCode: null;
            region: null;
            country: null;
        };
        /** @description The address an order ships to; every member null once its customer was erased. */
        OrderAddress: components["schemas"]["Address"] | components["schemas"]["ErasedAddress"];
        /** @description JSON Merge Patch (RFC 7396) of an address: a member set to null removes it (only line2 and region may be removed). */
        AddressPatch: {
            name?: string;
            line1?: string;
            line2?: string | null;
            city?: string;
            postalCode?: string;
            region?: string | null;
            /**
             * @description ISO 3166-1 alpha-2
             * @enum {string}
             */
            country?: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "XK" | "YE" | "YT" | "ZA" | "ZM" | "ZW";
        };
        OrderLineInput: {
            sku: string;
            quantity: number;
            /** @description optional (since 2026-11-01 deprecated, a relaxation): the price comes from the catalogue; when sent it must equal the catalogue price in the order currency, else 409 price-changed */
            unitPrice?: number;
        };
        NewOrder: {
            customerId: string;
            /**
             * @description ISO 4217
             * @enum {string}
             */
            currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HRK" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SLL" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XDR" | "XOF" | "XPF" | "XSU" | "YER" | "ZAR" | "ZMW" | "ZWG" | "ZWL";
            lines: components["schemas"]["OrderLineInput"][];
            address: components["schemas"]["Address"];
        };
        OrderPatch: {
            address: components["schemas"]["AddressPatch"];
        };
        NewPayment: {
            /** @description minor units; must equal the order total */
            amount: number;
            reference: string;
            /** @description how the order was paid; unknown when not sent (added in 2026-11-01, additive) */
            method?: components["schemas"]["PaymentMethod"];
        };
        /** @enum {string} */
        PaymentMethod: "card" | "bank-transfer" | "wallet" | "unknown";
        NewShipment: {
            carrier: string;
            trackingNumber: string;
        };
        Cancellation: {
            reason?: string | null;
        };
        NewExport: {
            /** @enum {string} */
            format: "ndjson" | "csv";
            filter?: {
                /** @enum {string} */
                status?: "pending" | "paid" | "shipped" | "cancelled";
                /** @description inclusive */
                createdFrom?: string;
                /** @description exclusive */
                createdTo?: string;
            };
        };
        Job: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "order-export";
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @enum {string} */
            format?: "ndjson" | "csv";
            /** @description the filter as applied: bounds as UTC instants */
            filter?: {
                /** @enum {string} */
                status?: "pending" | "paid" | "shipped" | "cancelled";
                /** Format: date-time */
                createdFrom?: string;
                /** Format: date-time */
                createdTo?: string;
            };
            progress: {
                processed: number;
                total: number;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            startedAt: string | null;
            /** Format: date-time */
            finishedAt: string | null;
            result: {
                href: string;
                contentType: string;
                count: number;
                bytes: number;
            } | null;
            /**
             * Format: date-time
             * @description when the result file will be removed
             */
            resultExpiresAt?: string | null;
            /**
             * Format: date-time
             * @description when the result file was removed; result is then null
             */
            resultExpiredAt?: string | null;
            /** @description why the job failed (an RFC 9457 problem); null unless it failed */
            error: null | {
                /** Format: uri */
                type: string;
                title: string;
                status: number;
                detail: string;
            };
        };
        NewStockAdjustment: {
            /** @description units added to (positive) or taken from (negative) the stock on hand */
            delta: number;
            /** @enum {string} */
            reason: "received" | "count" | "damaged" | "returned" | "other";
            note?: string | null;
        };
        StockAdjustment: {
            /** Format: uuid */
            id: string;
            sku: string;
            delta: number;
            /** @enum {string} */
            reason: "received" | "count" | "damaged" | "returned" | "other";
            note: string | null;
            /** @description right after this adjustment */
            onHand: number;
            /** @description right after this adjustment */
            reserved: number;
            /** @description onHand − reserved, right after this adjustment */
            available: number;
            /** Format: date-time */
            createdAt: string;
        };
        Stock: {
            sku: string;
            onHand: number;
            /** @description held by pending and paid orders */
            reserved: number;
            /** @description onHand − reserved, never below 0 */
            available: number;
            /**
             * Format: date-time
             * @description null for a SKU whose stock never changed
             */
            updatedAt: string | null;
            /** @description the SKU's stock stream revision; null for a SKU whose stock never changed */
            revision: number | null;
        };
        StockPage: {
            items: components["schemas"]["Stock"][];
            nextCursor: string | null;
        };
        StockListQuery: {
            /** @description only SKUs whose available stock is below this */
            below?: number;
            /** @default 20 */
            limit: number;
            cursor?: string;
        };
        NewCustomer: {
            /** @description one customer per email, compared case-insensitively */
            email: string;
            name: string;
            /** @description digits, spaces and ( ) . / -, an optional leading + */
            phone?: string | null;
            defaultAddress?: null | components["schemas"]["Address"];
        };
        /** @description JSON Merge Patch (RFC 7396) of a customer: defaultAddress is merged member by member; null removes phone or defaultAddress. */
        CustomerPatch: {
            /** @description one customer per email, compared case-insensitively */
            email?: string;
            name?: string;
            /** @description digits, spaces and ( ) . / -, an optional leading + */
            phone?: string | null;
            defaultAddress?: null | components["schemas"]["AddressPatch"];
        };
        CustomerListQuery: {
            /** @description exact match, case-insensitive */
            email?: string;
            /** @default 20 */
            limit: number;
            cursor?: string;
        };
        /** @description A customer. Once erased, every personal member (email, name, phone, defaultAddress) is null and erasedAt says when. */
        Customer: {
            id: string;
            email: string | null;
            name: string | null;
            phone: string | null;
            defaultAddress: null | components["schemas"]["Address"];
            /** @enum {string} */
            status: "active" | "erased";
            /**
             * Format: date-time
             * @description the registration; for a guest customer (no record before), the erasure
             */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** Format: date-time */
            erasedAt: string | null;
            /** @description the customer stream revision; ETag is "<revision>" */
            revision: number;
        };
        CustomerPage: {
            items: components["schemas"]["Customer"][];
            nextCursor: string | null;
        };
        NewAccount: {
            email: components["schemas"]["Email"];
            password: components["schemas"]["Password"];
            /** @enum {string} */
            role: "admin" | "staff" | "fulfilment" | "auditor" | "customer";
            /** @description Required for the customer role, refused for the others. */
            customerId?: string;
        };
        /** @description JSON Merge Patch (RFC 7396): the role (among the staff roles: the customer role is given only at creation) and whether the account is disabled. */
        AccountPatch: {
            /** @enum {string} */
            role?: "admin" | "staff" | "fulfilment" | "auditor";
            disabled?: boolean;
        };
        PasswordChange: {
            currentPassword: string;
            newPassword: components["schemas"]["Password"];
        };
        SignIn: {
            email: string;
            password: string;
        };
        /** @description one account per email, compared case-insensitively; kept lower-cased */
        Email: string;
        /** @description 12–256 characters (NIST SP 800-63B), any of them. Never returned, logged or stored in clear (argon2id). */
        Password: string;
        Account: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "staff" | "fulfilment" | "auditor" | "customer";
            /** @description The customer a customer account acts for; null for the other roles. */
            customerId: string | null;
            disabled: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            revision: number;
        };
        AccountPage: {
            items: components["schemas"]["Account"][];
            nextCursor: string | null;
        };
        /** @description RFC 6749 §5.1. */
        AccessToken: {
            access_token: string;
            /** @constant */
            token_type: "Bearer";
            /** @description Seconds (TOKEN_TTL_SECONDS). */
            expires_in: number;
            /** @description The role's scopes, space-separated. */
            scope: string;
        };
        /** @description A page of a collection without filters: the fulfilment queue, an order history. */
        PageQuery: {
            /** @default 20 */
            limit: number;
            cursor?: string;
        };
        ChangesQuery: {
            /** @description the position of the last change handled */
            after?: string;
            /**
             * @description seconds to wait for a change when there is none yet
             * @default 0
             */
            wait: number;
            /** @default 100 */
            limit: number;
        };
        PointInTimeQuery: {
            /** @description the order as it stood at this instant (audit:read) */
            asOf?: string;
            /** @description the order as it stood at this revision (audit:read) */
            revision?: number;
        };
        OrderListQuery: {
            /** @enum {string} */
            status?: "pending" | "paid" | "shipped" | "cancelled";
            customerId?: string;
            /**
             * @default -createdAt
             * @enum {string}
             */
            sort: "createdAt" | "-createdAt";
            /** @default 20 */
            limit: number;
            cursor?: string;
        };
        OrderLine: {
            sku: string;
            /** @description the product name when the order was placed; null on orders placed before the catalogue existed (added in 2026-11-01, additive) */
            name: string | null;
            quantity: number;
            /** @description the catalogue price in the order currency when the order was placed */
            unitPrice: number;
            lineTotal: number;
        };
        /** @description A whole product (PUT). */
        ProductInput: {
            name: string;
            /** @description null (or left out) for none */
            description?: string | null;
            /** @description by ISO 4217 currency, in minor units (1299 = 12.99); a currency left out has no price */
            prices: {
                [key: string]: number;
            };
            /**
             * @description only an active product can be ordered
             * @enum {string}
             */
            status: "draft" | "active";
        };
        /** @description JSON Merge Patch (RFC 7396) of a product: members left out stay; {"prices":{"USD":null}} removes the USD price; description null removes it. */
        ProductPatch: {
            name?: string;
            description?: string | null;
            /** @description prices to set by ISO 4217 currency, in minor units; null removes the price in that currency */
            prices?: {
                [key: string]: number | null;
            };
            /** @enum {string} */
            status?: "draft" | "active";
        };
        Product: {
            sku: string;
            name: string;
            description: string | null;
            /** @description by ISO 4217 currency, in minor units */
            prices: {
                [key: string]: number;
            };
            /** @enum {string} */
            status: "draft" | "active";
            /**
             * Format: date-time
             * @description when the SKU was (last) defined: a product created anew after its retirement starts again
             */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description the product stream revision; ETag is "<revision>" */
            revision: number;
        };
        ProductPage: {
            items: components["schemas"]["Product"][];
            nextCursor: string | null;
        };
        ProductListQuery: {
            /** @enum {string} */
            status?: "draft" | "active";
            /**
             * @default sku
             * @enum {string}
             */
            sort: "sku" | "-updatedAt";
            /** @default 20 */
            limit: number;
            cursor?: string;
        };
        Order: {
            /** Format: uuid */
            id: string;
            customerId: string;
            /** @enum {string} */
            status: "pending" | "paid" | "shipped" | "cancelled";
            currency: string;
            lines: components["schemas"]["OrderLine"][];
            /** @description minor units */
            total: number;
            address: components["schemas"]["OrderAddress"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description the order stream revision (0 for a new order); ETag is "<revision>" */
            revision: number;
        };
        OrderPage: {
            items: components["schemas"]["Order"][];
            nextCursor: string | null;
        };
        Payment: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            orderId: string;
            amount: number;
            reference: string;
            method: components["schemas"]["PaymentMethod"];
            /** Format: date-time */
            createdAt: string;
        };
        Shipment: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            orderId: string;
            carrier: string;
            trackingNumber: string;
            /** Format: date-time */
            createdAt: string;
        };
        /** @description A paid order waiting to ship. */
        QueueEntry: {
            /** Format: uuid */
            orderId: string;
            customerId: string;
            currency: string;
            /** @description minor units */
            total: number;
            lines: components["schemas"]["OrderLine"][];
            address: components["schemas"]["OrderAddress"];
            /**
             * Format: date-time
             * @description when the payment was recorded; the queue is in this order
             */
            paidAt: string;
            /** @description the order stream revision this entry includes */
            revision: number;
        };
        QueuePage: {
            items: components["schemas"]["QueueEntry"][];
            nextCursor: string | null;
        };
        /** @description An order entered the queue (paid) or left it (shipped, cancelled). */
        QueueChange: {
            /** @description its log position: continue after it with `after` or Last-Event-ID */
            position: string;
            /** Format: uuid */
            orderId: string;
            /** @enum {string} */
            change: "entered" | "left";
            /** @enum {string} */
            reason: "paid" | "shipped" | "cancelled";
            /**
             * Format: date-time
             * @description when the event was recorded
             */
            at: string;
        };
        QueueChanges: {
            changes: components["schemas"]["QueueChange"][];
            /** @description the position to continue after (`after`); null while the log is empty */
            next: string | null;
        };
        /** @description One event of an order, its data upcast to the current schema version. */
        HistoryEvent: {
            /** @constant */
            type: "OrderPlaced";
            /**
             * @description the version `data` is given in (stored events are upcast on read)
             * @constant
             */
            schemaVersion: 2;
            /** @description the version the event was stored in */
            recordedSchemaVersion: number;
            /** @description its revision in the order stream */
            revision: number;
            /** @description its position in the log */
            position: string;
            /**
             * Format: date-time
             * @description when the store recorded it
             */
            recordedAt: string;
            data: {
                /** Format: uuid */
                orderId: string;
                customerId: string;
                currency: string;
                lines: components["schemas"]["OrderLine"][];
                total: number;
                address: components["schemas"]["OrderAddress"];
                /** Format: date-time */
                placedAt: string;
            };
            metadata: {
                principal: string;
                correlationId: string;
                causationId: string | null;
            };
        } | {
            /** @constant */
            type: "OrderAddressChanged";
            /**
             * @description the version `data` is given in (stored events are upcast on read)
             * @constant
             */
            schemaVersion: 1;
            /** @description the version the event was stored in */
            recordedSchemaVersion: number;
            /** @description its revision in the order stream */
            revision: number;
            /** @description its position in the log */
            position: string;
            /**
             * Format: date-time
             * @description when the store recorded it
             */
            recordedAt: string;
            data: {
                /** Format: uuid */
                orderId: string;
                address: components["schemas"]["OrderAddress"];
                /** Format: date-time */
                changedAt: string;
            };
            metadata: {
                principal: string;
                correlationId: string;
                causationId: string | null;
            };
        } | {
            /** @constant */
            type: "PaymentRecorded";
            /**
             * @description the version `data` is given in (stored events are upcast on read)
             * @constant
             */
            schemaVersion: 2;
            /** @description the version the event was stored in */
            recordedSchemaVersion: number;
            /** @description its revision in the order stream */
            revision: number;
            /** @description its position in the log */
            position: string;
            /**
             * Format: date-time
             * @description when the store recorded it
             */
            recordedAt: string;
            data: {
                /** Format: uuid */
                orderId: string;
                paymentId: string;
                amount: number;
                reference: string;
                method: components["schemas"]["PaymentMethod"];
                /** Format: date-time */
                recordedAt: string;
            };
            metadata: {
                principal: string;
                correlationId: string;
                causationId: string | null;
            };
        } | {
            /** @constant */
            type: "ShipmentCreated";
            /**
             * @description the version `data` is given in (stored events are upcast on read)
             * @constant
             */
            schemaVersion: 1;
            /** @description the version the event was stored in */
            recordedSchemaVersion: number;
            /** @description its revision in the order stream */
            revision: number;
            /** @description its position in the log */
            position: string;
            /**
             * Format: date-time
             * @description when the store recorded it
             */
            recordedAt: string;
            data: {
                /** Format: uuid */
                orderId: string;
                shipmentId: string;
                carrier: string;
                trackingNumber: string;
                /** Format: date-time */
                createdAt: string;
            };
            metadata: {
                principal: string;
                correlationId: string;
                causationId: string | null;
            };
        } | {
            /** @constant */
            type: "OrderCancelled";
            /**
             * @description the version `data` is given in (stored events are upcast on read)
             * @constant
             */
            schemaVersion: 1;
            /** @description the version the event was stored in */
            recordedSchemaVersion: number;
            /** @description its revision in the order stream */
            revision: number;
            /** @description its position in the log */
            position: string;
            /**
             * Format: date-time
             * @description when the store recorded it
             */
            recordedAt: string;
            data: {
                /** Format: uuid */
                orderId: string;
                reason: string | null;
                /** Format: date-time */
                cancelledAt: string;
            };
            metadata: {
                principal: string;
                correlationId: string;
                causationId: string | null;
            };
        } | {
            /** @constant */
            type: "CustomerErased";
            /**
             * @description the version `data` is given in (stored events are upcast on read)
             * @constant
             */
            schemaVersion: 1;
            /** @description the version the event was stored in */
            recordedSchemaVersion: number;
            /** @description its revision in the customer's stream */
            revision: number;
            /** @description its position in the log */
            position: string;
            /**
             * Format: date-time
             * @description when the store recorded it
             */
            recordedAt: string;
            data: {
                customerId: string;
                /** Format: date-time */
                erasedAt: string;
            };
            metadata: {
                principal: string;
                correlationId: string;
                causationId: string | null;
            };
        };
        HistoryPage: {
            items: components["schemas"]["HistoryEvent"][];
            nextCursor: string | null;
        };
        /** @description RFC 9457 problem details. Each response names the codes `type` can end in. */
        Problem: {
            /**
             * Format: uri
             * @description ends in the stable error code
             */
            type: string;
            title: string;
            status: number;
            detail?: string;
            /** @description the path of the request */
            instance?: string;
            correlationId: string;
            /** @description state-conflict: the status that forbids the change */
            currentStatus?: string;
            /** @description precondition-failed: the revision the order or product has */
            currentRevision?: number;
            /** @description forbidden: the scope the operation needs */
            requiredScope?: string;
            /** @description unsupported-api-version: the versions served */
            supportedVersions?: string[];
            /**
             * Format: date-time
             * @description result-expired: when the result was removed
             */
            resultExpiredAt?: string | null;
            /** @description rate-limited by the export cap: how many exports may be queued or running at once */
            limit?: number;
            /**
             * @description unavailable: the event store did not confirm a write in time; it may have taken effect
             * @enum {string}
             */
            outcome?: "unknown";
            /** @description validation-failed: one entry per problem; insufficient-stock: one entry per short order line (/lines/{i}/quantity) or the adjustment's /delta, with what is available; product-unavailable: one per line that cannot be ordered (/lines/i/sku); price-changed: one per line whose unitPrice differs (/lines/i/unitPrice), with the current unitPrice */
            errors?: {
                /** @description JSON Pointer into the body, the query (/limit), the path (/path/id) or a header (/headers/name) */
                pointer: string;
                message: string;
                /** @description insufficient-stock: the stock available for this line */
                available?: number;
                /** @description price-changed: the line's unit price in the catalogue now */
                unitPrice?: number;
            }[];
        };
    };
    responses: {
        /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
        BadRequest: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/malformed-json" | "https://errors.orders.example/validation-failed" | "https://errors.orders.example/invalid-cursor" | "https://errors.orders.example/idempotency-key-missing" | "https://errors.orders.example/token-in-query" | "https://errors.orders.example/unsupported-api-version" | "https://errors.orders.example/malformed-request";
                    /** @constant */
                    status?: 400;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
        RequestRefused: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/token-in-query" | "https://errors.orders.example/unsupported-api-version" | "https://errors.orders.example/malformed-request";
                    /** @constant */
                    status?: 400;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
        Unauthenticated: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Bearer realm="orders" */
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/unauthenticated";
                    /** @constant */
                    status?: 401;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
        Forbidden: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/forbidden";
                    /** @constant */
                    status?: 403;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
        NotFound: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/not-found";
                    /** @constant */
                    status?: 404;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description method-not-allowed: any method a path does not list; Allow names the ones it does (besides OPTIONS, always served). */
        MethodNotAllowed: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description The methods of this path, e.g. "HEAD, GET, POST". */
                Allow: string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/method-not-allowed";
                    /** @constant */
                    status?: 405;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
        RequestTimeout: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/request-timeout";
                    /** @constant */
                    status?: 408;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description state-conflict: the state forbids the change; currentStatus says why. */
        StateConflict: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/state-conflict";
                    /** @constant */
                    status?: 409;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description idempotency-key-in-use: the first request with this key is still running; retry after Retry-After. */
        IdempotencyKeyInUse: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/idempotency-key-in-use";
                    /** @constant */
                    status?: 409;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description state-conflict: the order state forbids the change (currentStatus says why); or idempotency-key-in-use: the first request with this key is still running (with Retry-After). */
        KeyedConflict: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/state-conflict" | "https://errors.orders.example/idempotency-key-in-use";
                    /** @constant */
                    status?: 409;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description precondition-failed: If-Match names an older revision (currentRevision is the resource's), or If-None-Match: * and the resource exists. */
        PreconditionFailed: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/precondition-failed";
                    /** @constant */
                    status?: 412;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description payload-too-large: the body is over 64 KiB. */
        PayloadTooLarge: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/payload-too-large";
                    /** @constant */
                    status?: 413;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description unsupported-media-type: the body must be application/json. */
        UnsupportedMediaType: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/unsupported-media-type";
                    /** @constant */
                    status?: 415;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description idempotency-key-reused: the key was used with a different body. */
        IdempotencyKeyReused: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/idempotency-key-reused";
                    /** @constant */
                    status?: 422;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description unknown-customer: the order's customer was erased: a new address cannot be recorded of it. */
        UnknownCustomer: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/unknown-customer";
                    /** @constant */
                    status?: 422;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description idempotency-key-in-use: the first request with this key is still running (with Retry-After); price-changed: a line sent a unitPrice other than the catalogue's (errors give each such line's current unitPrice); insufficient-stock: a line needs more stock than is available (errors name each short line, /lines/i/quantity, with its available stock; nothing was reserved); or state-conflict: this placement was given up after it failed (place it again under a new key). */
        PlacementConflict: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/idempotency-key-in-use" | "https://errors.orders.example/price-changed" | "https://errors.orders.example/insufficient-stock" | "https://errors.orders.example/state-conflict";
                    /** @constant */
                    status?: 409;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description idempotency-key-reused: the key was used for a different request; product-unavailable: a line names a product that is unknown, retired, not active or without a price in the order currency (errors name each line, /lines/i/sku); or unknown-customer: customerId names an erased customer, or (under Api-Version 2026-12-01) a customer without a record (errors point at /customerId). */
        PlacementRefused: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/idempotency-key-reused" | "https://errors.orders.example/product-unavailable" | "https://errors.orders.example/unknown-customer";
                    /** @constant */
                    status?: 422;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description unsupported-media-type: the body is not application/merge-patch+json. */
        MergePatchOnly: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description application/merge-patch+json */
                "Accept-Patch": "application/merge-patch+json";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/unsupported-media-type";
                    /** @constant */
                    status?: 415;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
        HeadersTooLarge: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/headers-too-large";
                    /** @constant */
                    status?: 431;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
        RateLimited: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/rate-limited";
                    /** @constant */
                    status?: 429;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description internal: anything unexpected; nothing internal is shown. */
        Internal: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/internal";
                    /** @constant */
                    status?: 500;
                } & components["schemas"]["Problem"];
            };
        };
        /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
        Unavailable: {
            headers: {
                "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                "Api-Version": components["headers"]["Api-Version"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": {
                    /** @enum {unknown} */
                    type?: "https://errors.orders.example/unavailable";
                    /** @constant */
                    status?: 503;
                } & components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description The order id, a UUID. */
        OrderId: string;
        /** @description The product SKU. */
        Sku: string;
        /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
        CustomerId: string;
        /** @description The account id, a UUID. */
        AccountId: string;
        /** @description The job id, a UUID. */
        JobId: string;
        /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
        "Idempotency-Key": string;
        /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
        "Consistency-Token": string;
    };
    requestBodies: never;
    headers: {
        /** @description Taken from the request when it is 1–128 characters of [A-Za-z0-9._:-], otherwise a new UUID. */
        "X-Correlation-Id": string;
        /** @description The API version the request was served under: the one its Api-Version header named, or 2026-11-01 when it named none. Any other value is 400 unsupported-api-version. */
        "Api-Version": "2026-12-01" | "2026-11-01";
        /** @description RFC 9745: on responses served under the deprecated 2026-11-01, the instant it was deprecated. */
        Deprecation: "@1796083200";
        /** @description RFC 8594: on responses served under the deprecated 2026-11-01, when it stops being served. */
        Sunset: "Tue, 01 Jun 2027 00:00:00 GMT";
        /** @description "<revision>" of the order or product (its stream revision). */
        ETag: string;
        /** @description The log position of this write; send it back on a collection read to wait until it is included. */
        "Consistency-Token": string;
        /** @description The log position this page reflects. */
        "Collection-Consistency-Token": string;
        /** @description true when this is the stored outcome of an earlier request with the same Idempotency-Key. */
        "Idempotent-Replayed": "true";
        /** @description <…>; rel="next" while there is a next page (RFC 8288). */
        Link: string;
        /** @description Remaining quota, draft-ietf-httpapi-ratelimit-headers: "default";r=<remaining>;t=<seconds>. */
        RateLimit: string;
        /** @description Quota policy: "default";q=<burst>;w=<seconds>. */
        "RateLimit-Policy": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listOrders: {
        parameters: {
            query?: {
                status?: components["schemas"]["OrderListQuery"]["status"];
                customerId?: components["schemas"]["OrderListQuery"]["customerId"];
                sort?: components["schemas"]["OrderListQuery"]["sort"];
                limit?: components["schemas"]["OrderListQuery"]["limit"];
                cursor?: components["schemas"]["OrderListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of orders. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    placeOrder: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewOrder"];
            };
        };
        responses: {
            /** @description The order was placed (or this is a replay of the request that placed it). */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description /orders/{id} */
                    Location: string;
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["PlacementConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["PlacementRefused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, POST, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, POST, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listOrdersHead: {
        parameters: {
            query?: {
                status?: components["schemas"]["OrderListQuery"]["status"];
                customerId?: components["schemas"]["OrderListQuery"]["customerId"];
                sort?: components["schemas"]["OrderListQuery"]["sort"];
                limit?: components["schemas"]["OrderListQuery"]["limit"];
                cursor?: components["schemas"]["OrderListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of orders. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getOrder: {
        parameters: {
            query?: {
                /** @description audit:read: the order as it stood at this instant (the store's recorded time); 404 if it did not exist yet. An RFC 3339 date-time naming a real instant. */
                asOf?: components["schemas"]["PointInTimeQuery"]["asOf"];
                /** @description audit:read: the order as it stood at this revision. */
                revision?: components["schemas"]["PointInTimeQuery"]["revision"];
            };
            header?: {
                /** @description ETags of this order; 304 when one is current. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description The order still has the revision named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsOrdersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD, PATCH (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD, PATCH. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOrderHead: {
        parameters: {
            query?: {
                /** @description audit:read: the order as it stood at this instant (the store's recorded time); 404 if it did not exist yet. An RFC 3339 date-time naming a real instant. */
                asOf?: components["schemas"]["PointInTimeQuery"]["asOf"];
                /** @description audit:read: the order as it stood at this revision. */
                revision?: components["schemas"]["PointInTimeQuery"]["revision"];
            };
            header?: {
                /** @description ETags of this order; 304 when one is current. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The order still has the revision named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    changeOrderAddress: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of this order; 412 when the order has moved on. */
                "If-Match"?: string;
            };
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["OrderPatch"];
            };
        };
        responses: {
            /** @description The changed order. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["StateConflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["MergePatchOnly"];
            422: components["responses"]["UnknownCustomer"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    recordPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPayment"];
            };
        };
        responses: {
            /** @description The payment. */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["KeyedConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsOrdersIdPayments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createShipment: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewShipment"];
            };
        };
        responses: {
            /** @description The shipment. */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shipment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["KeyedConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsOrdersIdShipments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Cancellation"];
            };
        };
        responses: {
            /** @description The cancelled order. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["StateConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsOrdersIdCancellation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOrderHistory: {
        parameters: {
            query?: {
                limit?: components["schemas"]["PageQuery"]["limit"];
                cursor?: components["schemas"]["PageQuery"]["cursor"];
            };
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the history. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsOrdersIdHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOrderHistoryHead: {
        parameters: {
            query?: {
                limit?: components["schemas"]["PageQuery"]["limit"];
                cursor?: components["schemas"]["PageQuery"]["cursor"];
            };
            header?: never;
            path: {
                /** @description The order id, a UUID. */
                id: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the history. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                status?: components["schemas"]["ProductListQuery"]["status"];
                sort?: components["schemas"]["ProductListQuery"]["sort"];
                limit?: components["schemas"]["ProductListQuery"]["limit"];
                cursor?: components["schemas"]["ProductListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of products. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listProductsHead: {
        parameters: {
            query?: {
                status?: components["schemas"]["ProductListQuery"]["status"];
                sort?: components["schemas"]["ProductListQuery"]["sort"];
                limit?: components["schemas"]["ProductListQuery"]["limit"];
                cursor?: components["schemas"]["ProductListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of products. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of this product; 304 when one is current. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The product still has the revision named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    putProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of this product; 412 when it has moved on (or does not exist). */
                "If-Match"?: string;
                /** @description * only: create, never replace; 412 when the product exists. */
                "If-None-Match"?: "*";
            };
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProductInput"];
            };
        };
        responses: {
            /** @description The product, replaced. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The product, created. */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    /** @description /products/{sku} */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    retireProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of this product; 412 when it has moved on. */
                "If-Match"?: string;
            };
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product is retired. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsProductsSku: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, PUT, DELETE, HEAD, PATCH (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, PUT, DELETE, HEAD, PATCH. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getProductHead: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of this product; 304 when one is current. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The product still has the revision named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    patchProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of this product; 412 when it has moved on. */
                "If-Match"?: string;
            };
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["ProductPatch"];
            };
        };
        responses: {
            /** @description The changed product. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["MergePatchOnly"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listFulfilmentQueue: {
        parameters: {
            query?: {
                limit?: components["schemas"]["PageQuery"]["limit"];
                cursor?: components["schemas"]["PageQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the queue. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsFulfilmentQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listFulfilmentQueueHead: {
        parameters: {
            query?: {
                limit?: components["schemas"]["PageQuery"]["limit"];
                cursor?: components["schemas"]["PageQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the queue. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    followFulfilmentQueue: {
        parameters: {
            query?: {
                after?: components["schemas"]["ChangesQuery"]["after"];
                wait?: components["schemas"]["ChangesQuery"]["wait"];
                limit?: components["schemas"]["ChangesQuery"]["limit"];
            };
            header?: {
                /** @description Server-Sent Events: the id of the last event handled (takes the place of `after`). */
                "Last-Event-ID"?: string;
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changes after `after` (none when `wait` passed without one). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueChanges"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsFulfilmentQueueChanges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    followFulfilmentQueueHead: {
        parameters: {
            query?: {
                after?: components["schemas"]["ChangesQuery"]["after"];
                wait?: components["schemas"]["ChangesQuery"]["wait"];
                limit?: components["schemas"]["ChangesQuery"]["limit"];
            };
            header?: {
                /** @description Server-Sent Events: the id of the last event handled (takes the place of `after`). */
                "Last-Event-ID"?: string;
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changes after `after` (none when `wait` passed without one). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    startExport: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewExport"];
            };
        };
        responses: {
            /** @description The job was accepted. */
            202: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description /jobs/{id} */
                    Location: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            /** @description rate-limited: the token's rate limit, or 5 exports of this principal already queued or running (the problem then has limit: 5); Retry-After says when to try again (about 5 s for the export cap). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/rate-limited";
                        /** @constant */
                        status?: 429;
                    } & components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsExports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsJobsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getJobHead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getJobResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export file. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description bytes */
                    "Content-Length"?: number;
                    /** @description attachment; filename="orders-<id>.<ndjson|csv>" */
                    "Content-Disposition": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["StateConflict"];
            /** @description result-expired: the result was removed after the retention. */
            410: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/result-expired";
                        /** @constant */
                        status?: 410;
                    } & components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsJobsIdResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getJobResultHead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id, a UUID. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export file. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description bytes */
                    "Content-Length"?: number;
                    /** @description attachment; filename="orders-<id>.<ndjson|csv>" */
                    "Content-Disposition": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description state-conflict: the state forbids the change; currentStatus says why. */
            409: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description result-expired: the result was removed after the retention. */
            410: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listStock: {
        parameters: {
            query?: {
                below?: components["schemas"]["StockListQuery"]["below"];
                limit?: components["schemas"]["StockListQuery"]["limit"];
                cursor?: components["schemas"]["StockListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stock levels. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsStock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listStockHead: {
        parameters: {
            query?: {
                below?: components["schemas"]["StockListQuery"]["below"];
                limit?: components["schemas"]["StockListQuery"]["limit"];
                cursor?: components["schemas"]["StockListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stock levels. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getStock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The levels. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsStockSku: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStockHead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The levels. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    adjustStock: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewStockAdjustment"];
            };
        };
        responses: {
            /** @description The adjustment, with the levels right after it. */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockAdjustment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description insufficient-stock: the delta would take onHand below what is reserved; idempotency-key-in-use: the first request with this key is still running (with Retry-After). */
            409: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/insufficient-stock" | "https://errors.orders.example/idempotency-key-in-use";
                        /** @constant */
                        status?: 409;
                    } & components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsStockSkuAdjustments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The product SKU. */
                sku: components["parameters"]["Sku"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                email?: components["schemas"]["CustomerListQuery"]["email"];
                limit?: components["schemas"]["CustomerListQuery"]["limit"];
                cursor?: components["schemas"]["CustomerListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of customers. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewCustomer"];
            };
        };
        responses: {
            /** @description The customer was created (or this is a replay of the request that created it). */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description /customers/{id} */
                    Location: string;
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description email-in-use: another customer has this email; or idempotency-key-in-use: the first request with this key is still running (with Retry-After). */
            409: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/email-in-use" | "https://errors.orders.example/idempotency-key-in-use";
                        /** @constant */
                        status?: 409;
                    } & components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsCustomers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, POST, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, POST, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listCustomersHead: {
        parameters: {
            query?: {
                email?: components["schemas"]["CustomerListQuery"]["email"];
                limit?: components["schemas"]["CustomerListQuery"]["limit"];
                cursor?: components["schemas"]["CustomerListQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of customers. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of this customer; 304 when one is current. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
                id: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description The customer still has the revision named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    eraseCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
                id: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Erased (now or before). */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsCustomersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
                id: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, DELETE, HEAD, PATCH (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, DELETE, HEAD, PATCH. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCustomerHead: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of this customer; 304 when one is current. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
                id: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The customer still has the revision named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    changeCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of this customer; 412 when it has moved on. */
                "If-Match"?: string;
            };
            path: {
                /** @description The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order. */
                id: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["CustomerPatch"];
            };
        };
        responses: {
            /** @description The changed customer. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description email-in-use: another customer has this email; or state-conflict: the customer was erased (currentStatus). */
            409: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/email-in-use" | "https://errors.orders.example/state-conflict";
                        /** @constant */
                        status?: 409;
                    } & components["schemas"]["Problem"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description unsupported-media-type: the body is not application/merge-patch+json. */
            415: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description application/merge-patch+json */
                    "Accept-Patch": "application/merge-patch+json";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/unsupported-media-type";
                        /** @constant */
                        status?: 415;
                    } & components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description no-store (RFC 6749 §5.1) */
                    "Cache-Control": "no-store";
                    /** @description no-cache (RFC 6749 §5.1) */
                    Pragma: "no-cache";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessToken"];
                };
            };
            /** @description malformed-json or validation-failed (with errors); and, on any request, token-in-query, unsupported-api-version or malformed-request. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/malformed-json" | "https://errors.orders.example/validation-failed" | "https://errors.orders.example/token-in-query" | "https://errors.orders.example/unsupported-api-version" | "https://errors.orders.example/malformed-request";
                        /** @constant */
                        status?: 400;
                    } & components["schemas"]["Problem"];
                };
            };
            /** @description invalid-credentials: an unknown email, a wrong password or a disabled account (one answer for all). */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/invalid-credentials";
                        /** @constant */
                        status?: 401;
                    } & components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description rate-limited: 5 failed sign-ins for this email within 15 minutes; Retry-After says when it may try again. */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/rate-limited";
                        /** @constant */
                        status?: 429;
                    } & components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                limit?: components["schemas"]["PageQuery"]["limit"];
                cursor?: components["schemas"]["PageQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header: {
                /** @description 1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewAccount"];
            };
        };
        responses: {
            /** @description The account was created (or this is a replay of the request that created it). */
            201: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description /accounts/{id} */
                    Location: string;
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description email-in-use: another account has this email; or idempotency-key-in-use: the first request with this key is still running (with Retry-After). */
            409: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/email-in-use" | "https://errors.orders.example/idempotency-key-in-use";
                        /** @constant */
                        status?: 409;
                    } & components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description idempotency-key-reused: the key was used with a different request; or unknown-customer: the customer account names a customer that does not exist or was erased (errors point at /customerId). */
            422: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/idempotency-key-reused" | "https://errors.orders.example/unknown-customer";
                        /** @constant */
                        status?: 422;
                    } & components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, POST, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, POST, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAccountsHead: {
        parameters: {
            query?: {
                limit?: components["schemas"]["PageQuery"]["limit"];
                cursor?: components["schemas"]["PageQuery"]["cursor"];
            };
            header?: {
                /** @description The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503). */
                "Consistency-Token"?: components["parameters"]["Consistency-Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    "Consistency-Token": components["headers"]["Collection-Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getMyAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAccountsMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMyAccountHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    changeMyPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description The password was changed. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description unauthenticated: the token (see components/responses/Unauthenticated); or invalid-credentials: the current password is wrong. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/unauthenticated" | "https://errors.orders.example/invalid-credentials";
                        /** @constant */
                        status?: 401;
                    } & components["schemas"]["Problem"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAccountsMePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names POST (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: POST. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account id, a UUID. */
                id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAccountsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account id, a UUID. */
                id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD, PATCH (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD, PATCH. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccountHead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account id, a UUID. */
                id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1). */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthenticated: no token, a bad signature, a wrong algorithm or an expired token. */
            401: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Bearer realm="orders" */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer. */
            403: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token). */
            429: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    changeAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account id, a UUID. */
                id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["AccountPatch"];
            };
        };
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Consistency-Token": components["headers"]["Consistency-Token"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description unsupported-media-type: the body is not application/merge-patch+json. */
            415: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description application/merge-patch+json */
                    "Accept-Patch": "application/merge-patch+json";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /** @enum {unknown} */
                        type?: "https://errors.orders.example/unsupported-media-type";
                        /** @constant */
                        status?: 415;
                    } & components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    adminApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description no-cache */
                    "Cache-Control": "no-cache";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    /** @description No inline script or style, nothing from another origin: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none'. */
                    "Content-Security-Policy": string;
                    /** @description no-referrer */
                    "Referrer-Policy": "no-referrer";
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The file still has the ETag named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description no-cache */
                    "Cache-Control": "no-cache";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    /** @description No inline script or style, nothing from another origin: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none'. */
                    "Content-Security-Policy": string;
                    /** @description no-referrer */
                    "Referrer-Policy": "no-referrer";
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAdmin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    adminAppHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description no-cache */
                    "Cache-Control": "no-cache";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    /** @description No inline script or style, nothing from another origin: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none'. */
                    "Content-Security-Policy": string;
                    /** @description no-referrer */
                    "Referrer-Policy": "no-referrer";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The file still has the ETag named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description no-cache */
                    "Cache-Control": "no-cache";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    /** @description No inline script or style, nothing from another origin: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none'. */
                    "Content-Security-Policy": string;
                    /** @description no-referrer */
                    "Referrer-Policy": "no-referrer";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    adminAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A file of the build, named by its content hash. */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description public, max-age=31536000, immutable */
                    "Cache-Control": "public, max-age=31536000, immutable";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                    "text/css": string;
                    "image/svg+xml": string;
                };
            };
            /** @description The file still has the ETag named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description public, max-age=31536000, immutable */
                    "Cache-Control": "public, max-age=31536000, immutable";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    optionsAdminAssetsFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A file of the build, named by its content hash. */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    adminAssetHead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A file of the build, named by its content hash. */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description public, max-age=31536000, immutable */
                    "Cache-Control": "public, max-age=31536000, immutable";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The file still has the ETag named in If-None-Match. */
            304: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description public, max-age=31536000, immutable */
                    "Cache-Control": "public, max-age=31536000, immutable";
                    /** @description A strong validator of this file in this encoding; If-None-Match with it answers 304. */
                    ETag: string;
                    /** @description nosniff */
                    "X-Content-Type-Options": "nosniff";
                    /** @description gzip when the request accepts it. */
                    "Content-Encoding"?: "gzip";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not-found: unknown, or not visible to this token; also any path this document does not list. */
            404: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    healthLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    optionsHealthLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    healthLiveHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    healthReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            /** @description Not ready; reason says what it waits for. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "unavailable";
                        reason: string;
                    };
                };
            };
        };
    };
    optionsHealthReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    healthReadyHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not ready; reason says what it waits for. */
            503: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    optionsMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    metricsHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    openApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    optionsOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allow names GET, HEAD (in any order). */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods of this path besides OPTIONS: GET, HEAD. */
                    Allow: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A CORS preflight from an allowed origin. */
            204: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    /** @description The methods a browser may use. */
                    "Access-Control-Allow-Methods": string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers": string;
                    /** @description Seconds a browser may keep this answer. */
                    "Access-Control-Max-Age": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    openApiHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs. */
            400: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description request-timeout: the request head did not arrive within 10 s. The connection is closed. */
            408: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description headers-too-large: the request head is over 16 KiB. The connection is closed. */
            431: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description internal: anything unexpected; nothing internal is shown. */
            500: {
                headers: {
                    "X-Correlation-Id": components["headers"]["X-Correlation-Id"];
                    "Api-Version": components["headers"]["Api-Version"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
