import type { paths } from "../../../client/index.ts";

/** A variable as the API lists it: `value` is absent for a secret (the API never sends it). */
export type EnvVar = paths["/v1/users/me/env"]["get"]["responses"][200]["content"]["application/json"]["data"][number];

/** The inputs of a variable's forms, by the API's field names (its 400 details). */
export const ENV_FIELDS = ["name", "value", "secret"] as const;
