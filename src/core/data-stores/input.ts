import { invalid, type FieldProblem } from "../../lib/errors.ts";
import { MAX_NAME_LENGTH, keyProblem, ttlProblem, valueProblem } from "../../lib/data-store-limits.ts";

// What the API gives the data stores, checked field by field so one 400 names every problem.

/** include/exclude are every body's response filters (http/filter.ts) */
const FILTERS = ["include", "exclude"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function unknownFields(body: Record<string, unknown>, known: string[], what: string, problems: FieldProblem[]): void {
  for (const key of Object.keys(body)) {
    if (!known.includes(key) && !FILTERS.includes(key)) problems.push({ field: key.length > 100 ? `${key.slice(0, 100)}...` : key, message: `is not a field of ${what}` });
  }
}

/** The name of POST /data_stores and PUT /data_stores/{id}. */
export function checkStoreName(body: unknown): string {
  if (!isObject(body)) throw invalid("the body must be a JSON object", [{ field: "body", message: "must be an object" }]);
  const problems: FieldProblem[] = [];
  unknownFields(body, ["name"], "a data store", problems);
  const name = body.name;
  if (name === undefined || name === null) problems.push({ field: "name", message: "is required" });
  else if (typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME_LENGTH) {
    problems.push({ field: "name", message: `must be a non-empty string of at most ${MAX_NAME_LENGTH} characters` });
  }
  if (problems.length) throw invalid("invalid data store", problems);
  return (name as string).trim();
}

export function checkKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw invalid(`invalid key: it ${problem}`, [{ field: "key", message: problem }]);
}

export interface RecordInput {
  value: unknown;
  valueJson: string;
  /** seconds; null: no expiry; undefined: the record's expiry stays (none for a new key) */
  ttl?: number | null;
}

/** The key and body of PUT /data_stores/{id}/records/{key}. */
export function checkRecordInput(key: string, body: unknown): RecordInput {
  const problems: FieldProblem[] = [];
  const keyIssue = keyProblem(key);
  if (keyIssue) problems.push({ field: "key", message: keyIssue });
  if (!isObject(body)) {
    problems.push({ field: "body", message: 'must be an object: {"value": <any JSON>, "ttl"?: seconds}' });
    throw invalid("invalid record", problems);
  }
  unknownFields(body, ["value", "ttl"], "a record", problems);
  let valueJson = "";
  if (body.value === undefined) problems.push({ field: "value", message: "is required (any JSON, null included)" });
  else {
    valueJson = JSON.stringify(body.value);
    const issue = valueProblem(valueJson);
    if (issue) problems.push({ field: "value", message: issue });
  }
  const ttl = body.ttl;
  if (ttl !== undefined && ttl !== null) {
    const issue = ttlProblem(ttl);
    if (issue) problems.push({ field: "ttl", message: issue });
  }
  if (problems.length) throw invalid("invalid record", problems);
  return { value: body.value, valueJson, ttl: ttl as number | null | undefined };
}

/** The query of GET /data_stores/{id}/records: a prefix, and `after` as the key it encodes. */
export function checkRecordQuery(q: { prefix?: string; after?: string; before?: string }): { prefix?: string; afterKey?: string } {
  const problems: FieldProblem[] = [];
  const prefix = q.prefix || undefined;
  const prefixIssue = prefix === undefined ? undefined : keyProblem(prefix);
  if (prefixIssue) problems.push({ field: "prefix", message: prefixIssue });
  let afterKey: string | undefined;
  if (q.after) {
    afterKey = decodeKeyCursor(q.after);
    if (afterKey === undefined) problems.push({ field: "after", message: "is not a valid cursor (a page's end_cursor)" });
  }
  if (q.before) problems.push({ field: "before", message: "records are paged forward only: use after=<end_cursor>" });
  if (problems.length) throw invalid("invalid records query", problems);
  return { prefix, afterKey };
}

// A records cursor is the key as base64url: records are in key order, so the key is the position.
export const encodeKeyCursor = (key: string): string => Buffer.from(key, "utf8").toString("base64url");

function decodeKeyCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const key = Buffer.from(cursor, "base64url").toString("utf8");
  return encodeKeyCursor(key) === cursor && keyProblem(key) === undefined ? key : undefined;
}
