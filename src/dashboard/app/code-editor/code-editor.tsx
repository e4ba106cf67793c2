import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Input } from "@mantine/core";
import { locationOf, readable } from "./code-editor-location.ts";
import type { EditorHandle } from "./code-editor-view.ts";

// A JavaScript editor (CodeMirror 6) as a controlled input: line numbers, highlighting, and the
// API's error on its line. CodeMirror is imported when the first editor mounts, so a bundle split
// into chunks would load it only on the pages that edit code.

interface Props {
  /** the editor's accessible name, e.g. "Code of shout" (CodeMirror's content is not a <textarea>) */
  ariaLabel: string;
  /** shown above it; defaults to ariaLabel */
  label?: ReactNode;
  description?: ReactNode;
  value: string;
  /** absent: read-only (the code can be read, selected and copied, not changed) */
  onChange?: (value: string) => void;
  /** the API's message about this code: shown under the editor, and its line marked when it names one */
  error?: string;
  /** when the message is already shown elsewhere (an alert): only mark the line */
  markOnly?: boolean;
  placeholder?: string;
  minLines?: number;
  required?: boolean;
  "data-testid"?: string;
}

export function CodeEditor({ ariaLabel, label, description, value, onChange, error, markOnly, placeholder, minLines = 6, required, ...rest }: Props) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle>(undefined);
  const [ready, setReady] = useState(false);
  // the editor is made once; it reads the newest callback and value through this
  const latest = useRef({ value, onChange });
  useEffect(() => {
    latest.current = { value, onChange };
  });

  useEffect(() => {
    let gone = false;
    void import("./code-editor-view.ts").then(({ createEditor }) => {
      if (gone || !host.current) return;
      editor.current = createEditor(host.current, { value: latest.current.value, label: ariaLabel, placeholder, readOnly: !latest.current.onChange, onChange: (v) => latest.current.onChange?.(v) });
      setReady(true);
    });
    return () => {
      gone = true;
      editor.current?.destroy();
      editor.current = undefined;
    };
    // made once: later values, labels and errors reach it through the effects below
  }, []);

  const shown = error && !markOnly ? readable(error) : undefined;
  const at = locationOf(error);
  useEffect(() => editor.current?.setValue(value), [value, ready]);
  useEffect(() => editor.current?.setLabel(ariaLabel, shown ? `${id}-error` : undefined), [ariaLabel, shown, id, ready]);
  useEffect(() => editor.current?.setProblem(locationOf(error), readable(error ?? "")), [error, ready]);

  return (
    <Input.Wrapper
      id={id}
      label={label ?? ariaLabel}
      labelElement="div"
      description={description}
      error={shown}
      required={required}
      styles={{ error: { whiteSpace: "pre-wrap" } }}
      data-testid={rest["data-testid"]}
      data-error-line={at?.line}
    >
      {/* until CodeMirror is there, its size is held so the page doesn't jump (13 px lines of 1.55, 14 px of padding) */}
      <div ref={host} style={{ minHeight: ready ? undefined : `calc(${minLines * 1.55 * 13}px + 14px)`, marginTop: 4, ["--code-editor-min-height" as string]: `${minLines * 1.55}em` }} />
    </Input.Wrapper>
  );
}
