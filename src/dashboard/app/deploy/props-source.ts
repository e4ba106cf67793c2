import { createContext, useContext } from "react";

// The source a props form edits, if it edits one: its questions (options, reload) are asked with
// its id, so the API answers with its stored values under the form's (its secrets, which the
// form never holds, included).

export const PropsSource = createContext<string | undefined>(undefined);

export const usePropsSource = (): string | undefined => useContext(PropsSource);
