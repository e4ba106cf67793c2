// A JSON object as parsed input has it: an object that is neither null nor an array.

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
