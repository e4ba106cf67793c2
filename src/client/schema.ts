// Generated from /v1/openapi.json by `npm run client:types` (openapi-typescript): do not edit.
export interface paths {
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the app's name, e.g. github (create only; it can't change) */
                        app?: unknown;
                        /** @description string of at most 200 characters; the app's name when not given */
                        name?: unknown;
                        /** @description object: the app's credentials, e.g. {oauth_access_token}; sealed at rest, never returned */
                        auth?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `apn_...` */
                                id: string;
                                app: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description the names of the auth's fields, in the order given; never their values */
                                auth_fields: string[];
                                /** @description connected with OAuth: the service refreshes its tokens */
                                oauth: boolean;
                                /** @description "error": its token refresh was refused; runs that use it fail until it is reconnected */
                                status: "ok" | "error";
                                status_reason?: string;
                                /** @description when its access token expires, if the provider said */
                                expires_at_ms?: number;
                                /** @description where the app sends its events for the apphook props bound to this account (no API key: keep it private); null for an account made by a node of the previous version, until it is edited or reconnected */
                                events_url: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `apn_...` */
                                id: string;
                                app: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description the names of the auth's fields, in the order given; never their values */
                                auth_fields: string[];
                                /** @description connected with OAuth: the service refreshes its tokens */
                                oauth: boolean;
                                /** @description "error": its token refresh was refused; runs that use it fail until it is reconnected */
                                status: "ok" | "error";
                                status_reason?: string;
                                /** @description when its access token expires, if the provider said */
                                expires_at_ms?: number;
                                /** @description where the app sends its events for the apphook props bound to this account (no API key: keep it private); null for an account made by a node of the previous version, until it is edited or reconnected */
                                events_url: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the app's name, e.g. github (create only; it can't change) */
                        app?: unknown;
                        /** @description string of at most 200 characters; the app's name when not given */
                        name?: unknown;
                        /** @description object: the app's credentials, e.g. {oauth_access_token}; sealed at rest, never returned */
                        auth?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `apn_...` */
                                id: string;
                                app: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description the names of the auth's fields, in the order given; never their values */
                                auth_fields: string[];
                                /** @description connected with OAuth: the service refreshes its tokens */
                                oauth: boolean;
                                /** @description "error": its token refresh was refused; runs that use it fail until it is reconnected */
                                status: "ok" | "error";
                                status_reason?: string;
                                /** @description when its access token expires, if the provider said */
                                expires_at_ms?: number;
                                /** @description where the app sends its events for the apphook props bound to this account (no API key: keep it private); null for an account made by a node of the previous version, until it is edited or reconnected */
                                events_url: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/events_url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new events_url for the account; the old one stops working */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `apn_...` */
                                id: string;
                                app: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description the names of the auth's fields, in the order given; never their values */
                                auth_fields: string[];
                                /** @description connected with OAuth: the service refreshes its tokens */
                                oauth: boolean;
                                /** @description "error": its token refresh was refused; runs that use it fail until it is reconnected */
                                status: "ok" | "error";
                                status_reason?: string;
                                /** @description when its access token expires, if the provider said */
                                expires_at_ms?: number;
                                /** @description where the app sends its events for the apphook props bound to this account (no API key: keep it private); null for an account made by a node of the previous version, until it is edited or reconnected */
                                events_url: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description string: the event's name, e.g. message or orders/create */
                        name: unknown;
                        /** @description what the hooks' runs receive as their event */
                        event?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the `dc_` ids of the sources a run was accepted for */
                                delivered: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                /** @description `apn_...` */
                                id: string;
                                app: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description the names of the auth's fields, in the order given; never their values */
                                auth_fields: string[];
                                /** @description connected with OAuth: the service refreshes its tokens */
                                oauth: boolean;
                                /** @description "error": its token refresh was refused; runs that use it fail until it is reconnected */
                                status: "ok" | "error";
                                status_reason?: string;
                                /** @description when its access token expires, if the provider said */
                                expires_at_ms?: number;
                                /** @description where the app sends its events for the apphook props bound to this account (no API key: keep it private); null for an account made by a node of the previous version, until it is edited or reconnected */
                                events_url: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the app to connect (an admin configured an OAuth app for it) */
                        app?: unknown;
                        /** @description the new account's name; the app's by default */
                        name?: unknown;
                        /** @description scopes to ask for instead of the OAuth app's */
                        scopes?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `oc_...`: the flow, for GET /accounts/connect/{id} */
                                id: string;
                                /** @description open it in a browser: the provider's page that asks the user to authorize */
                                authorize_url: string;
                                /** @description the flow must finish before this */
                                expires_at_ms: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/connect/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                app: string;
                                status: "pending" | "connected" | "failed" | "expired";
                                account_id?: string;
                                error?: string;
                                expires_at_ms: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/reconnect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        scopes?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `oc_...`: the flow, for GET /accounts/connect/{id} */
                                id: string;
                                /** @description open it in a browser: the provider's page that asks the user to authorize */
                                authorize_url: string;
                                /** @description the flow must finish before this */
                                expires_at_ms: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth_apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `oa_...` */
                                id: string;
                                app: string;
                                client_id: string;
                                authorize_url: string;
                                token_url: string;
                                scopes: string[];
                                pkce: boolean;
                                token_auth: "basic" | "body";
                                authorize_params: {
                                    [key: string]: string;
                                };
                                created_at: number;
                                updated_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the app's name, e.g. github (create only); one OAuth app per app */
                        app?: unknown;
                        /** @description the client id the provider gave */
                        client_id?: unknown;
                        /** @description the client secret; sealed at rest, never returned */
                        client_secret?: unknown;
                        /** @description the provider's authorization endpoint */
                        authorize_url?: unknown;
                        /** @description the provider's token endpoint */
                        token_url?: unknown;
                        /** @description scopes asked for when a connect request names none */
                        scopes?: unknown;
                        /** @description send a PKCE S256 challenge (default true) */
                        pkce?: unknown;
                        /** @description "basic" (default) or "body": how the client authenticates at the token endpoint */
                        token_auth?: unknown;
                        /** @description extra query parameters of the authorization URL, e.g. {access_type: offline} */
                        authorize_params?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `oa_...` */
                                id: string;
                                app: string;
                                client_id: string;
                                authorize_url: string;
                                token_url: string;
                                scopes: string[];
                                pkce: boolean;
                                token_auth: "basic" | "body";
                                authorize_params: {
                                    [key: string]: string;
                                };
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth_apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `oa_...` */
                                id: string;
                                app: string;
                                client_id: string;
                                authorize_url: string;
                                token_url: string;
                                scopes: string[];
                                pkce: boolean;
                                token_auth: "basic" | "body";
                                authorize_params: {
                                    [key: string]: string;
                                };
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the app's name, e.g. github (create only); one OAuth app per app */
                        app?: unknown;
                        /** @description the client id the provider gave */
                        client_id?: unknown;
                        /** @description the client secret; sealed at rest, never returned */
                        client_secret?: unknown;
                        /** @description the provider's authorization endpoint */
                        authorize_url?: unknown;
                        /** @description the provider's token endpoint */
                        token_url?: unknown;
                        /** @description scopes asked for when a connect request names none */
                        scopes?: unknown;
                        /** @description send a PKCE S256 challenge (default true) */
                        pkce?: unknown;
                        /** @description "basic" (default) or "body": how the client authenticates at the token endpoint */
                        token_auth?: unknown;
                        /** @description extra query parameters of the authorization URL, e.g. {access_type: offline} */
                        authorize_params?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `oa_...` */
                                id: string;
                                app: string;
                                client_id: string;
                                authorize_url: string;
                                token_url: string;
                                scopes: string[];
                                pkce: boolean;
                                token_auth: "basic" | "body";
                                authorize_params: {
                                    [key: string]: string;
                                };
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/env": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                name: string;
                                secret: boolean;
                                /** @description absent for a secret */
                                value?: string;
                                updated_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/env/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description `^[A-Za-z_][A-Za-z0-9_]{0,127}$`, case-sensitive */
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description string of at most 64 KiB (UTF-8), required; sealed at rest */
                        value?: unknown;
                        /** @description boolean: never show the value again; when absent, a new variable is not secret and a replaced one stays as it was */
                        secret?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                name: string;
                                secret: boolean;
                                /** @description absent for a secret */
                                value?: string;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description `^[A-Za-z_][A-Za-z0-9_]{0,127}$`, case-sensitive */
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                name: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                username: string;
                                email: string;
                                admin: boolean;
                                api_key: string;
                                daily_compute_time_quota: number;
                                daily_compute_time_used: number;
                                daily_invocations_quota: number;
                                daily_invocations_used: number;
                                /** @description the organizations the user belongs to (Pipedream's field): always empty here */
                                orgs: unknown[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/api_key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                username: string;
                                email: string;
                                admin: boolean;
                                api_key: string;
                                daily_compute_time_quota: number;
                                daily_compute_time_used: number;
                                daily_invocations_quota: number;
                                daily_invocations_used: number;
                                /** @description the organizations the user belongs to (Pipedream's field): always empty here */
                                orgs: unknown[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                username: string;
                                email: string;
                                admin: boolean;
                                created_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        username: string;
                        email: string;
                        admin?: boolean;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                username: string;
                                email: string;
                                admin: boolean;
                                api_key: string;
                                daily_compute_time_quota: number;
                                daily_compute_time_used: number;
                                daily_invocations_quota: number;
                                daily_invocations_used: number;
                                /** @description the organizations the user belongs to (Pipedream's field): always empty here */
                                orgs: unknown[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        component_code?: string;
                        component_url?: string;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                code: string;
                                code_hash: string;
                                name: string;
                                version: string;
                                /** @description the component's own key (a registry component is also found by it) */
                                key: string | null;
                                /** @description "source" or "action" */
                                type: string;
                                description: string | null;
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/registry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                    /** @description only components of this type */
                    type?: "source" | "action";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                code_hash: string;
                                name: string;
                                version: string;
                                /** @description the component's own key (a registry component is also found by it) */
                                key: string | null;
                                /** @description "source" or "action" */
                                type: string;
                                description: string | null;
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                created_at: number;
                                updated_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        component_code?: string;
                        component_url?: string;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                code: string;
                                code_hash: string;
                                name: string;
                                version: string;
                                /** @description the component's own key (a registry component is also found by it) */
                                key: string | null;
                                /** @description "source" or "action" */
                                type: string;
                                description: string | null;
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                    /** @description only components of this type */
                    type?: "source" | "action";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                code_hash: string;
                                name: string;
                                version: string;
                                /** @description the component's own key (a registry component is also found by it) */
                                key: string | null;
                                /** @description "source" or "action" */
                                type: string;
                                description: string | null;
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                created_at: number;
                                updated_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/registry/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                code: string;
                                code_hash: string;
                                name: string;
                                version: string;
                                /** @description the component's own key (a registry component is also found by it) */
                                key: string | null;
                                /** @description "source" or "action" */
                                type: string;
                                description: string | null;
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/{keyOrId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    keyOrId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                code: string;
                                code_hash: string;
                                name: string;
                                version: string;
                                /** @description the component's own key (a registry component is also found by it) */
                                key: string | null;
                                /** @description "source" or "action" */
                                type: string;
                                description: string | null;
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/{id}/props/{prop}/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A prop's options, from its options() run in the sandbox */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    prop: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the props set so far, as a source's configured_props: app props name an account of yours ({authProvisionId}) */
                        configured_props?: {
                            [key: string]: unknown;
                        };
                        /** @description a source of yours of this component, being edited: its stored values (secrets too) stand under configured_props */
                        source_id?: string;
                        /** @description the context the previous page came with: the next page */
                        prev_context?: {
                            [key: string]: unknown;
                        };
                        /** @description what the user typed to search for */
                        query?: string;
                        /** @description the page asked for, from 0 (Pipedream's `page`) */
                        page?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                options: {
                                    label: string;
                                    value: unknown;
                                }[];
                                /** @description present when there are more: send it back as prev_context */
                                context?: {
                                    [key: string]: unknown;
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/{id}/props/reload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The component's props as configured: its own and those additionalProps() adds */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the props set so far, as a source's configured_props: app props name an account of yours ({authProvisionId}) */
                        configured_props?: {
                            [key: string]: unknown;
                        };
                        /** @description a source of yours of this component, being edited: its stored values (secrets too) stand under configured_props */
                        source_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                configurable_props: ({
                                    name: string;
                                    type: string;
                                    label?: string;
                                    description?: string;
                                    app?: string;
                                    default?: unknown;
                                    /** @description not shown where props are set, and never required (additionalProps() may change it) */
                                    hidden?: boolean;
                                    /** @description shown but not to be set, and never required (additionalProps() may change it) */
                                    disabled?: boolean;
                                    appProp?: string;
                                    eventNames?: string[];
                                    /** @description an `alert` prop's kind: info, neutral, warning or error */
                                    alertType?: string;
                                    /** @description an `alert` prop's text (Markdown), shown where the props are set */
                                    content?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/sources/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                user_id?: string;
                                component_id: string;
                                configured_props: {
                                    [key: string]: unknown;
                                };
                                active: boolean;
                                created_at: number;
                                updated_at: number;
                                name: string;
                                name_slug: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        component_id?: string;
                        component_code?: string;
                        component_url?: string;
                        key?: string;
                        name?: string;
                        configured_props?: {
                            [key: string]: unknown;
                        };
                        active?: boolean;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                user_id?: string;
                                component_id: string;
                                configured_props: {
                                    [key: string]: unknown;
                                };
                                active: boolean;
                                created_at: number;
                                updated_at: number;
                                name: string;
                                name_slug: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                user_id?: string;
                                component_id: string;
                                configured_props: {
                                    [key: string]: unknown;
                                };
                                active: boolean;
                                created_at: number;
                                updated_at: number;
                                name: string;
                                name_slug: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        component_id?: string;
                        component_code?: string;
                        component_url?: string;
                        key?: string;
                        name?: string;
                        configured_props?: {
                            [key: string]: unknown;
                        };
                        active?: boolean;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                user_id?: string;
                                component_id: string;
                                configured_props: {
                                    [key: string]: unknown;
                                };
                                active: boolean;
                                created_at: number;
                                updated_at: number;
                                name: string;
                                name_slug: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    emitter_id?: string;
                    listener_id?: string;
                    event_name?: string;
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                emitter_id: string;
                                listener_id: string;
                                event_name: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete: {
            parameters: {
                query?: {
                    emitter_id?: string;
                    listener_id?: string;
                    event_name?: string;
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                deleted: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auto_subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    emitter_id?: string;
                    listener_id?: string;
                    event_name?: string;
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                event_name: string;
                                listener_id: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/auto_subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @description "default", "$errors" or "$logs", as created */
                                event_name: string;
                                listener_id: string;
                                created_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auto_subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description `asub_...` */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                emitter_id: string;
                                listener_id: string;
                                event_name: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/event_summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                    /** @description `event` returns full event data */
                    expand?: string;
                    /** @description another stream: $errors, $logs, a custom name */
                    event_name?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                /** @description `<ms>-<seq>`; sort numerically */
                                id: string;
                                indexed_at_ms: number;
                                event: unknown;
                                metadata: {
                                    emit_id: string;
                                    name: string;
                                    emitter_id: string;
                                    id?: unknown;
                                    summary?: string;
                                    ts: number;
                                };
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: {
                    start_id?: string;
                    end_id?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accepted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accepted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/error_summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    /** @description comma-separated source and workflow ids, at most 100 */
                    ids: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the source (`dc_`) or workflow (`p_`) */
                                id: string;
                                /** @description its $errors events kept (the stream keeps its newest events) */
                                count: number;
                                last_error: {
                                    /** @description the error's name (a workflow's: its code) */
                                    name: string;
                                    /** @description its message, at most 500 characters */
                                    message: string;
                                    /** @description when it was put on $errors */
                                    at_ms: number;
                                    /** @description a workflow's failing step */
                                    step: string | null;
                                };
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                name: string;
                                active: boolean;
                                deployment_id: string;
                                trigger: {
                                    /** @description http, timer or none */
                                    type: string;
                                    endpoint_url?: string;
                                    /** @description http: the reply waits for the run's $.respond() */
                                    custom_response?: boolean;
                                    interval_seconds?: number | null;
                                    cron?: string | null;
                                };
                                steps: {
                                    /** @description the step's cell id (c_...), new with every deployment */
                                    id: string;
                                    name: string;
                                    /** @description the step's own module (a code step) */
                                    code?: string;
                                    /** @description the saved component the step runs (sc_...) */
                                    component_id?: string;
                                    /** @description the registry component the step runs */
                                    key?: string;
                                    /** @description configured props; secret values as {"secret": true} */
                                    props: {
                                        [key: string]: unknown;
                                    };
                                }[];
                                settings: {
                                    /** @description a failed step runs again this many times (0-8), with backoff from 10 s, doubling */
                                    retries: number;
                                    /** @description at most this many runs execute at once; the rest wait, queued, in order (null: no bound) */
                                    concurrency: number | null;
                                    /** @description at most `limit` runs start per `per_seconds`; the rest wait, queued (null: no bound) */
                                    rate: {
                                        limit: number;
                                        per_seconds: number;
                                    } | null;
                                };
                                created_at: number;
                                updated_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description string */
                        name?: unknown;
                        /** @description [{name, code | component_id | key, props?}]: code is a module exporting { async run({ steps, $ }) }; component_id a saved component (sc_...); key a registry component; props its configured props (string values may hold {{ expressions }}; send a secret back as {"secret": true} to keep it) */
                        steps?: unknown;
                        /** @description {type: "http"} | {type: "timer", interval_seconds | cron} | {type: "none"} */
                        trigger?: unknown;
                        /** @description boolean */
                        active?: unknown;
                        /** @description {retries?: 0-8, concurrency?: n | null, rate?: {limit, per_seconds} | null}; null: the defaults */
                        settings?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                name: string;
                                active: boolean;
                                deployment_id: string;
                                trigger: {
                                    /** @description http, timer or none */
                                    type: string;
                                    endpoint_url?: string;
                                    /** @description http: the reply waits for the run's $.respond() */
                                    custom_response?: boolean;
                                    interval_seconds?: number | null;
                                    cron?: string | null;
                                };
                                steps: {
                                    /** @description the step's cell id (c_...), new with every deployment */
                                    id: string;
                                    name: string;
                                    /** @description the step's own module (a code step) */
                                    code?: string;
                                    /** @description the saved component the step runs (sc_...) */
                                    component_id?: string;
                                    /** @description the registry component the step runs */
                                    key?: string;
                                    /** @description configured props; secret values as {"secret": true} */
                                    props: {
                                        [key: string]: unknown;
                                    };
                                }[];
                                settings: {
                                    /** @description a failed step runs again this many times (0-8), with backoff from 10 s, doubling */
                                    retries: number;
                                    /** @description at most this many runs execute at once; the rest wait, queued, in order (null: no bound) */
                                    concurrency: number | null;
                                    /** @description at most `limit` runs start per `per_seconds`; the rest wait, queued (null: no bound) */
                                    rate: {
                                        limit: number;
                                        per_seconds: number;
                                    } | null;
                                };
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                name: string;
                                active: boolean;
                                deployment_id: string;
                                trigger: {
                                    /** @description http, timer or none */
                                    type: string;
                                    endpoint_url?: string;
                                    /** @description http: the reply waits for the run's $.respond() */
                                    custom_response?: boolean;
                                    interval_seconds?: number | null;
                                    cron?: string | null;
                                };
                                steps: {
                                    /** @description the step's cell id (c_...), new with every deployment */
                                    id: string;
                                    name: string;
                                    /** @description the step's own module (a code step) */
                                    code?: string;
                                    /** @description the saved component the step runs (sc_...) */
                                    component_id?: string;
                                    /** @description the registry component the step runs */
                                    key?: string;
                                    /** @description configured props; secret values as {"secret": true} */
                                    props: {
                                        [key: string]: unknown;
                                    };
                                }[];
                                settings: {
                                    /** @description a failed step runs again this many times (0-8), with backoff from 10 s, doubling */
                                    retries: number;
                                    /** @description at most this many runs execute at once; the rest wait, queued, in order (null: no bound) */
                                    concurrency: number | null;
                                    /** @description at most `limit` runs start per `per_seconds`; the rest wait, queued (null: no bound) */
                                    rate: {
                                        limit: number;
                                        per_seconds: number;
                                    } | null;
                                };
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description string */
                        name?: unknown;
                        /** @description [{name, code | component_id | key, props?}]: code is a module exporting { async run({ steps, $ }) }; component_id a saved component (sc_...); key a registry component; props its configured props (string values may hold {{ expressions }}; send a secret back as {"secret": true} to keep it) */
                        steps?: unknown;
                        /** @description {type: "http"} | {type: "timer", interval_seconds | cron} | {type: "none"} */
                        trigger?: unknown;
                        /** @description boolean */
                        active?: unknown;
                        /** @description {retries?: 0-8, concurrency?: n | null, rate?: {limit, per_seconds} | null}; null: the defaults */
                        settings?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                name: string;
                                active: boolean;
                                deployment_id: string;
                                trigger: {
                                    /** @description http, timer or none */
                                    type: string;
                                    endpoint_url?: string;
                                    /** @description http: the reply waits for the run's $.respond() */
                                    custom_response?: boolean;
                                    interval_seconds?: number | null;
                                    cron?: string | null;
                                };
                                steps: {
                                    /** @description the step's cell id (c_...), new with every deployment */
                                    id: string;
                                    name: string;
                                    /** @description the step's own module (a code step) */
                                    code?: string;
                                    /** @description the saved component the step runs (sc_...) */
                                    component_id?: string;
                                    /** @description the registry component the step runs */
                                    key?: string;
                                    /** @description configured props; secret values as {"secret": true} */
                                    props: {
                                        [key: string]: unknown;
                                    };
                                }[];
                                settings: {
                                    /** @description a failed step runs again this many times (0-8), with backoff from 10 s, doubling */
                                    retries: number;
                                    /** @description at most this many runs execute at once; the rest wait, queued, in order (null: no bound) */
                                    concurrency: number | null;
                                    /** @description at most `limit` runs start per `per_seconds`; the rest wait, queued (null: no bound) */
                                    rate: {
                                        limit: number;
                                        per_seconds: number;
                                    } | null;
                                };
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/deployments/{deployment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    deployment_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `d_...` */
                                id: string;
                                workflow_id: string;
                                /** @description when it was deployed (seconds) */
                                created_at: number;
                                /** @description whether it is the workflow's current deployment */
                                current: boolean;
                                steps: {
                                    /** @description the step's cell id (c_...), new with every deployment */
                                    id: string;
                                    name: string;
                                    /** @description the step's own module (a code step) */
                                    code?: string;
                                    /** @description the saved component the step runs (sc_...) */
                                    component_id?: string;
                                    /** @description the registry component the step runs */
                                    key?: string;
                                    /** @description configured props; secret values as {"secret": true} */
                                    props: {
                                        [key: string]: unknown;
                                    };
                                }[];
                                trigger: {
                                    /** @description http, timer or none */
                                    type: string;
                                    endpoint_url?: string;
                                    /** @description http: the reply waits for the run's $.respond() */
                                    custom_response?: boolean;
                                    interval_seconds?: number | null;
                                    cron?: string | null;
                                };
                                settings: {
                                    /** @description a failed step runs again this many times (0-8), with backoff from 10 s, doubling */
                                    retries: number;
                                    /** @description at most this many runs execute at once; the rest wait, queued, in order (null: no bound) */
                                    concurrency: number | null;
                                    /** @description at most `limit` runs start per `per_seconds`; the rest wait, queued (null: no bound) */
                                    rate: {
                                        limit: number;
                                        per_seconds: number;
                                    } | null;
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accepted: boolean;
                                /** @description the run started (`r_...`): GET /v1/runs/{run_id} */
                                run_id: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/event_summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                    /** @description `event` returns full event data */
                    expand?: string;
                    /** @description another stream: $errors, $logs, a custom name */
                    event_name?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                /** @description `<ms>-<seq>`; sort numerically */
                                id: string;
                                indexed_at_ms: number;
                                event: unknown;
                                metadata: {
                                    emit_id: string;
                                    name: string;
                                    emitter_id: string;
                                    id?: unknown;
                                    summary?: string;
                                    ts: number;
                                };
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/$errors/event_summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                    /** @description `event` returns full event data */
                    expand?: string;
                    /** @description another stream: $errors, $logs, a custom name */
                    event_name?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                /** @description `<ms>-<seq>`; sort numerically */
                                id: string;
                                indexed_at_ms: number;
                                event: unknown;
                                metadata: {
                                    emit_id: string;
                                    name: string;
                                    emitter_id: string;
                                    id?: unknown;
                                    summary?: string;
                                    ts: number;
                                };
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                    /** @description `event` (the whole trigger event), `steps` (whole step values), or both: `event,steps` */
                    expand?: string;
                    status?: "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                /** @description `r_...` */
                                id: string;
                                workflow_id: string;
                                /** @enum {unknown} */
                                status: "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
                                /** @description any JSON; over 1024 bytes of JSON (unless expand=event): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 1024 characters>"} */
                                trigger_event: unknown;
                                /** @description the deployment (`d_...`) whose steps the run runs: the one it started on, to its end */
                                deployment_id: string;
                                /** @description whether deployment_id is the workflow's current deployment */
                                deployment_current: boolean | null;
                                started_at_ms: number;
                                ended_at_ms: number | null;
                                summary: string | null;
                                /**
                                 * @description how the run started: a request to the workflow's endpoint, Run now (the API, CLI or dashboard), a replay, a retry, an event delivered to it, or its timer
                                 * @enum {unknown}
                                 */
                                started_by: "request" | "run_now" | "replay" | "retry" | "event" | "timer";
                                /** @description the HTTP reply the request that started the run got (only a run started_by request has one) */
                                response: {
                                    status: number;
                                } | null;
                                /** @description the run this one replays */
                                replay_of: string | null;
                                /** @description the run this one retries from one of its steps (its earlier steps' results are that run's) */
                                retry_of: string | null;
                                /** @description what a live run waits for; null when it isn't waiting */
                                waiting: {
                                    /**
                                     * @description $.flow.delay / suspend / rerun, a retry's backoff, or room under concurrency or rate
                                     * @enum {unknown}
                                     */
                                    for: "delay" | "suspend" | "rerun" | "retry" | "queued";
                                    /** @description the step (0-based) that waits or made the run wait */
                                    step_index: number;
                                    /** @description when it goes on by itself (a suspension's timeout fails it); null: only when resumed or cancelled */
                                    until_ms: number | null;
                                } | null;
                                /** @description in order; absent in lists */
                                steps?: {
                                    name: string;
                                    /** @description the step's cell id, `c_...`, of the run's deployment */
                                    id: string;
                                    /** @enum {unknown} */
                                    status: "pending" | "running" | "suspended" | "succeeded" | "failed" | "skipped";
                                    started_at_ms: number | null;
                                    ended_at_ms: number | null;
                                    /** @description any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"}; null: none */
                                    return_value: unknown;
                                    /** @description what the step exported ($.export), an object; any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"} */
                                    exports: unknown;
                                    logs: unknown[];
                                    /** @description {name, message, stack}: why the step failed */
                                    error?: unknown;
                                    attempts: number;
                                    /** @description what the step queued with $.send.http / $.send.email, sent once it committed */
                                    sends: {
                                        /** @description `snd_...` */
                                        id: string;
                                        /** @enum {unknown} */
                                        kind: "http" | "email";
                                        /** @enum {unknown} */
                                        status: "pending" | "sent" | "failed";
                                        /** @description tries so far */
                                        attempts: number;
                                        /** @description http: the request's method */
                                        method?: string;
                                        /** @description http: the request's URL */
                                        url?: string;
                                        /** @description email: its subject */
                                        subject?: string;
                                        /** @description http: the status of the last try */
                                        last_status: number | null;
                                        /** @description why the last try failed */
                                        last_error: string | null;
                                        created_at_ms: number;
                                        /** @description when it was sent, or given up */
                                        done_at_ms: number | null;
                                        /** @description a pending send's next try */
                                        next_at_ms: number | null;
                                    }[];
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    /** @description `event` (the whole trigger event), `steps` (whole step values), or both: `event,steps` */
                    expand?: string;
                };
                header?: never;
                path: {
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `r_...` */
                                id: string;
                                workflow_id: string;
                                /** @enum {unknown} */
                                status: "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
                                /** @description any JSON; over 1024 bytes of JSON (unless expand=event): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 1024 characters>"} */
                                trigger_event: unknown;
                                /** @description the deployment (`d_...`) whose steps the run runs: the one it started on, to its end */
                                deployment_id: string;
                                /** @description whether deployment_id is the workflow's current deployment */
                                deployment_current: boolean | null;
                                started_at_ms: number;
                                ended_at_ms: number | null;
                                summary: string | null;
                                /**
                                 * @description how the run started: a request to the workflow's endpoint, Run now (the API, CLI or dashboard), a replay, a retry, an event delivered to it, or its timer
                                 * @enum {unknown}
                                 */
                                started_by: "request" | "run_now" | "replay" | "retry" | "event" | "timer";
                                /** @description the HTTP reply the request that started the run got (only a run started_by request has one) */
                                response: {
                                    status: number;
                                } | null;
                                /** @description the run this one replays */
                                replay_of: string | null;
                                /** @description the run this one retries from one of its steps (its earlier steps' results are that run's) */
                                retry_of: string | null;
                                /** @description what a live run waits for; null when it isn't waiting */
                                waiting: {
                                    /**
                                     * @description $.flow.delay / suspend / rerun, a retry's backoff, or room under concurrency or rate
                                     * @enum {unknown}
                                     */
                                    for: "delay" | "suspend" | "rerun" | "retry" | "queued";
                                    /** @description the step (0-based) that waits or made the run wait */
                                    step_index: number;
                                    /** @description when it goes on by itself (a suspension's timeout fails it); null: only when resumed or cancelled */
                                    until_ms: number | null;
                                } | null;
                                /** @description in order; absent in lists */
                                steps?: {
                                    name: string;
                                    /** @description the step's cell id, `c_...`, of the run's deployment */
                                    id: string;
                                    /** @enum {unknown} */
                                    status: "pending" | "running" | "suspended" | "succeeded" | "failed" | "skipped";
                                    started_at_ms: number | null;
                                    ended_at_ms: number | null;
                                    /** @description any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"}; null: none */
                                    return_value: unknown;
                                    /** @description what the step exported ($.export), an object; any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"} */
                                    exports: unknown;
                                    logs: unknown[];
                                    /** @description {name, message, stack}: why the step failed */
                                    error?: unknown;
                                    attempts: number;
                                    /** @description what the step queued with $.send.http / $.send.email, sent once it committed */
                                    sends: {
                                        /** @description `snd_...` */
                                        id: string;
                                        /** @enum {unknown} */
                                        kind: "http" | "email";
                                        /** @enum {unknown} */
                                        status: "pending" | "sent" | "failed";
                                        /** @description tries so far */
                                        attempts: number;
                                        /** @description http: the request's method */
                                        method?: string;
                                        /** @description http: the request's URL */
                                        url?: string;
                                        /** @description email: its subject */
                                        subject?: string;
                                        /** @description http: the status of the last try */
                                        last_status: number | null;
                                        /** @description why the last try failed */
                                        last_error: string | null;
                                        created_at_ms: number;
                                        /** @description when it was sent, or given up */
                                        done_at_ms: number | null;
                                        /** @description a pending send's next try */
                                        next_at_ms: number | null;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description run the workflow's current deployment (the default: the fix-and-replay case), or the one the replayed run ran
                         * @enum {unknown}
                         */
                        deployment?: "current" | "original";
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accepted: boolean;
                                /** @description the new run (`r_...`), replay_of the one replayed */
                                id: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the step to run again from, by name (default: the step that failed) */
                        from_step?: string;
                        /**
                         * @description the workflow's current deployment (the default: a fix), or the one the run ran
                         * @enum {unknown}
                         */
                        deployment?: "current" | "original";
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accepted: boolean;
                                /** @description the new run (`r_...`), replay_of the one replayed */
                                id: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the resume data's body: steps.<name>.$resume_data.body */
                        data?: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `r_...` */
                                id: string;
                                workflow_id: string;
                                /** @enum {unknown} */
                                status: "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
                                /** @description any JSON; over 1024 bytes of JSON (unless expand=event): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 1024 characters>"} */
                                trigger_event: unknown;
                                /** @description the deployment (`d_...`) whose steps the run runs: the one it started on, to its end */
                                deployment_id: string;
                                /** @description whether deployment_id is the workflow's current deployment */
                                deployment_current: boolean | null;
                                started_at_ms: number;
                                ended_at_ms: number | null;
                                summary: string | null;
                                /**
                                 * @description how the run started: a request to the workflow's endpoint, Run now (the API, CLI or dashboard), a replay, a retry, an event delivered to it, or its timer
                                 * @enum {unknown}
                                 */
                                started_by: "request" | "run_now" | "replay" | "retry" | "event" | "timer";
                                /** @description the HTTP reply the request that started the run got (only a run started_by request has one) */
                                response: {
                                    status: number;
                                } | null;
                                /** @description the run this one replays */
                                replay_of: string | null;
                                /** @description the run this one retries from one of its steps (its earlier steps' results are that run's) */
                                retry_of: string | null;
                                /** @description what a live run waits for; null when it isn't waiting */
                                waiting: {
                                    /**
                                     * @description $.flow.delay / suspend / rerun, a retry's backoff, or room under concurrency or rate
                                     * @enum {unknown}
                                     */
                                    for: "delay" | "suspend" | "rerun" | "retry" | "queued";
                                    /** @description the step (0-based) that waits or made the run wait */
                                    step_index: number;
                                    /** @description when it goes on by itself (a suspension's timeout fails it); null: only when resumed or cancelled */
                                    until_ms: number | null;
                                } | null;
                                /** @description in order; absent in lists */
                                steps?: {
                                    name: string;
                                    /** @description the step's cell id, `c_...`, of the run's deployment */
                                    id: string;
                                    /** @enum {unknown} */
                                    status: "pending" | "running" | "suspended" | "succeeded" | "failed" | "skipped";
                                    started_at_ms: number | null;
                                    ended_at_ms: number | null;
                                    /** @description any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"}; null: none */
                                    return_value: unknown;
                                    /** @description what the step exported ($.export), an object; any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"} */
                                    exports: unknown;
                                    logs: unknown[];
                                    /** @description {name, message, stack}: why the step failed */
                                    error?: unknown;
                                    attempts: number;
                                    /** @description what the step queued with $.send.http / $.send.email, sent once it committed */
                                    sends: {
                                        /** @description `snd_...` */
                                        id: string;
                                        /** @enum {unknown} */
                                        kind: "http" | "email";
                                        /** @enum {unknown} */
                                        status: "pending" | "sent" | "failed";
                                        /** @description tries so far */
                                        attempts: number;
                                        /** @description http: the request's method */
                                        method?: string;
                                        /** @description http: the request's URL */
                                        url?: string;
                                        /** @description email: its subject */
                                        subject?: string;
                                        /** @description http: the status of the last try */
                                        last_status: number | null;
                                        /** @description why the last try failed */
                                        last_error: string | null;
                                        created_at_ms: number;
                                        /** @description when it was sent, or given up */
                                        done_at_ms: number | null;
                                        /** @description a pending send's next try */
                                        next_at_ms: number | null;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `r_...` */
                                id: string;
                                workflow_id: string;
                                /** @enum {unknown} */
                                status: "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
                                /** @description any JSON; over 1024 bytes of JSON (unless expand=event): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 1024 characters>"} */
                                trigger_event: unknown;
                                /** @description the deployment (`d_...`) whose steps the run runs: the one it started on, to its end */
                                deployment_id: string;
                                /** @description whether deployment_id is the workflow's current deployment */
                                deployment_current: boolean | null;
                                started_at_ms: number;
                                ended_at_ms: number | null;
                                summary: string | null;
                                /**
                                 * @description how the run started: a request to the workflow's endpoint, Run now (the API, CLI or dashboard), a replay, a retry, an event delivered to it, or its timer
                                 * @enum {unknown}
                                 */
                                started_by: "request" | "run_now" | "replay" | "retry" | "event" | "timer";
                                /** @description the HTTP reply the request that started the run got (only a run started_by request has one) */
                                response: {
                                    status: number;
                                } | null;
                                /** @description the run this one replays */
                                replay_of: string | null;
                                /** @description the run this one retries from one of its steps (its earlier steps' results are that run's) */
                                retry_of: string | null;
                                /** @description what a live run waits for; null when it isn't waiting */
                                waiting: {
                                    /**
                                     * @description $.flow.delay / suspend / rerun, a retry's backoff, or room under concurrency or rate
                                     * @enum {unknown}
                                     */
                                    for: "delay" | "suspend" | "rerun" | "retry" | "queued";
                                    /** @description the step (0-based) that waits or made the run wait */
                                    step_index: number;
                                    /** @description when it goes on by itself (a suspension's timeout fails it); null: only when resumed or cancelled */
                                    until_ms: number | null;
                                } | null;
                                /** @description in order; absent in lists */
                                steps?: {
                                    name: string;
                                    /** @description the step's cell id, `c_...`, of the run's deployment */
                                    id: string;
                                    /** @enum {unknown} */
                                    status: "pending" | "running" | "suspended" | "succeeded" | "failed" | "skipped";
                                    started_at_ms: number | null;
                                    ended_at_ms: number | null;
                                    /** @description any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"}; null: none */
                                    return_value: unknown;
                                    /** @description what the step exported ($.export), an object; any JSON; over 4096 bytes of JSON (unless expand=steps): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first 4096 characters>"} */
                                    exports: unknown;
                                    logs: unknown[];
                                    /** @description {name, message, stack}: why the step failed */
                                    error?: unknown;
                                    attempts: number;
                                    /** @description what the step queued with $.send.http / $.send.email, sent once it committed */
                                    sends: {
                                        /** @description `snd_...` */
                                        id: string;
                                        /** @enum {unknown} */
                                        kind: "http" | "email";
                                        /** @enum {unknown} */
                                        status: "pending" | "sent" | "failed";
                                        /** @description tries so far */
                                        attempts: number;
                                        /** @description http: the request's method */
                                        method?: string;
                                        /** @description http: the request's URL */
                                        url?: string;
                                        /** @description email: its subject */
                                        subject?: string;
                                        /** @description http: the status of the last try */
                                        last_status: number | null;
                                        /** @description why the last try failed */
                                        last_error: string | null;
                                        created_at_ms: number;
                                        /** @description when it was sent, or given up */
                                        done_at_ms: number | null;
                                        /** @description a pending send's next try */
                                        next_at_ms: number | null;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/runs/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description the runs to replay: those with this status (default failed)
                         * @enum {unknown}
                         */
                        status?: "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
                        /** @description started at or after (ms since the epoch) */
                        since?: number;
                        /** @description started at or before (ms since the epoch) */
                        until?: number;
                        /** @description at most this many, newest first (default and most 1000) */
                        limit?: number;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the new runs (`r_...`), each replay_of one that matched */
                                runs: string[];
                                /** @description how many runs matched in all (more than were replayed past the limit) */
                                matched: number;
                                /** @description why it stopped before the last that matched (the quota ran out) */
                                stopped?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/steps/{name}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the run (`r_...`) of this workflow whose trigger event and earlier steps' results the step sees */
                        run_id: string;
                        /** @description a draft of the step's code (default: the saved step's) */
                        code?: string;
                        /** @description a draft of the step's props (default: the saved ones; a secret shown as saved keeps its value) */
                        props?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description what the step returned (null: nothing) */
                                return_value: unknown;
                                /** @description what it exported ($.export), an object */
                                exports: unknown;
                                logs: unknown[];
                                /** @description {name, message, stack}: why it failed */
                                error?: unknown;
                                duration_ms: number;
                                /** @description what it would have sent: not sent */
                                sends: {
                                    /** @enum {unknown} */
                                    kind: "http" | "email";
                                    request: unknown;
                                }[];
                                /** @description what it answered with $.respond: nobody got it */
                                response?: unknown;
                                /** @description data store writes it made: not written */
                                data_store_writes: {
                                    store: string;
                                    operations: number;
                                }[];
                                /** @description it asked to wait (delay, suspend, rerun) or exited: nothing waits */
                                flow?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    url?: string;
                    name?: string;
                    description?: string;
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                user_id: string;
                                name: string;
                                description: string;
                                url: string;
                                active: boolean;
                                /** @description shown only in the create response */
                                secret?: string;
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                user_id: string;
                                name: string;
                                description: string;
                                url: string;
                                active: boolean;
                                /** @description shown only in the create response */
                                secret?: string;
                                created_at: number;
                                updated_at: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                event_id: string;
                                emitter_id: string;
                                status: "pending" | "delivered" | "failed";
                                /** @description tries so far */
                                attempts: number;
                                /** @description the HTTP status of the last try; null when none came back */
                                last_status_code: number | null;
                                /** @description why the last try failed (a refused address, a timeout, HTTP 500...) */
                                last_error: string | null;
                                /** @description when it is tried next; null once delivered or failed */
                                next_attempt_at_ms: number | null;
                                created_at_ms: number;
                                delivered_at_ms: number | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                id: string;
                                user_id: string;
                                name: string;
                                description: string;
                                url: string;
                                active: boolean;
                                /** @description shown only in the create response */
                                secret?: string;
                                created_at: number;
                                updated_at: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description string of 1 to 200 characters */
                        name?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `ds_...` */
                                id: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description live records (expired ones never count) */
                                keys: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `ds_...` */
                                id: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description live records (expired ones never count) */
                                keys: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description string of 1 to 200 characters */
                        name?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description `ds_...` */
                                id: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description live records (expired ones never count) */
                                keys: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/data_stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                    limit?: number;
                    after?: string;
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                /** @description `ds_...` */
                                id: string;
                                name: string;
                                created_at: number;
                                updated_at: number;
                                /** @description live records (expired ones never count) */
                                keys: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores/{id}/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description only keys that start with it */
                    prefix?: string;
                    limit?: number;
                    /** @description a page's end_cursor: the records after its last key */
                    after?: string;
                    /** @description not supported: records page forward only */
                    before?: string;
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page_info: {
                                total_count: number;
                                count: number;
                                start_cursor: string;
                                end_cursor: string;
                            };
                            data: {
                                key: string;
                                /** @description any JSON */
                                value: unknown;
                                /** @description when the record expires (ms); null: never */
                                expires_at_ms: number | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores/{id}/records/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated fields to include */
                    include?: string;
                    /** @description comma-separated fields to exclude */
                    exclude?: string;
                };
                header?: never;
                path: {
                    id: string;
                    /** @description the key, URL-encoded (encodeURIComponent) */
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                key: string;
                                /** @description any JSON */
                                value: unknown;
                                /** @description when the record expires (ms); null: never */
                                expires_at_ms: number | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description the key, URL-encoded (encodeURIComponent) */
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description required: any JSON, at most 256 KiB as JSON */
                        value?: unknown;
                        /** @description seconds until it expires (positive integer); null: never; absent: the record's expiry stays */
                        ttl?: unknown;
                        /** @description comma-separated fields to include */
                        include?: string;
                        /** @description comma-separated fields to exclude */
                        exclude?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                key: string;
                                /** @description any JSON */
                                value: unknown;
                                /** @description when the record expires (ms); null: never */
                                expires_at_ms: number | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description the key, URL-encoded (encodeURIComponent) */
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                key: string;
                                deleted: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorEnvelope: {
            error: {
                code: string;
                message: string;
                details?: {
                    field: string;
                    message: string;
                }[];
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
