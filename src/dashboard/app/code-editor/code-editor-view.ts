import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from "@codemirror/view";
import { Annotation, Compartment, EditorState } from "@codemirror/state";
import { bracketMatching, defaultHighlightStyle, LanguageSupport, syntaxHighlighting } from "@codemirror/language";
import { javascriptLanguage } from "@codemirror/lang-javascript";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import type { Location } from "./code-editor-location.ts";

// The CodeMirror side of code-editor.tsx, in a module of its own so the React side can import it
// lazily. Deliberately not `basicSetup`: autocompletion, search and bracket closing would add a
// third to the size, and bracket closing or re-indenting on input would change pasted code.
// The JavaScript language alone, without lang-javascript's completions, for the same reason.

export interface EditorOptions {
  value: string;
  label: string;
  placeholder?: string;
  onChange: (value: string) => void;
  /** shown, selectable and scrollable, but not editable (code as a run ran it) */
  readOnly?: boolean;
}

export interface EditorHandle {
  /** the value the page holds now; a no-op when the editor already shows it */
  setValue(value: string): void;
  /** its accessible name, and the id of the message that describes it (an error) */
  setLabel(label: string, describedBy: string | undefined): void;
  /** marks the line a problem names (with its message), or clears the mark */
  setProblem(at: Location | undefined, message: string): void;
  destroy(): void;
}

// changes made to follow the page's value are not the user's: they aren't echoed back as onChange
const fromPage = Annotation.define<boolean>();

const theme = EditorView.theme({
  "&": { fontSize: "13px", backgroundColor: "var(--mantine-color-body)", border: "1px solid var(--mantine-color-default-border)", borderRadius: "var(--mantine-radius-md)" },
  "&.cm-focused": { outline: "2px solid var(--mantine-primary-color-filled)", outlineOffset: "-1px" },
  ".cm-scroller": { fontFamily: "var(--mantine-font-family-monospace)", lineHeight: "1.55", maxHeight: "480px", minHeight: "var(--code-editor-min-height, 7em)", overflow: "auto" },
  ".cm-content": { padding: "6px 0" },
  ".cm-gutters": { backgroundColor: "var(--mantine-color-gray-0)", color: "var(--mantine-color-dimmed)", borderRight: "1px solid var(--mantine-color-default-border)", borderTopLeftRadius: "var(--mantine-radius-md)", borderBottomLeftRadius: "var(--mantine-radius-md)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--mantine-color-indigo-1) 45%, transparent)" },
  ".cm-placeholder": { color: "var(--mantine-color-placeholder)" },
  ".cm-lintRange-error": { backgroundColor: "var(--mantine-color-red-1)" },
});

const labelAttributes = (label: string, describedBy?: string) =>
  EditorView.contentAttributes.of({ "aria-label": label, ...(describedBy ? { "aria-describedby": describedBy, "aria-invalid": "true" } : {}) });

export function createEditor(parent: HTMLElement, opts: EditorOptions): EditorHandle {
  const label = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        // wrapped, not scrolled sideways: the editor sits in a form, often on a narrow screen
        EditorView.lineWrapping,
        history(),
        bracketMatching(),
        new LanguageSupport(javascriptLanguage),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        lintGutter(),
        theme,
        label.of(labelAttributes(opts.label)),
        EditorView.contentAttributes.of({ spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
        ...(opts.placeholder ? [placeholder(opts.placeholder)] : []),
        ...(opts.readOnly ? [EditorState.readOnly.of(true), EditorView.contentAttributes.of({ "aria-readonly": "true" })] : []),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !u.transactions.some((t) => t.annotation(fromPage))) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setValue(value) {
      const now = view.state.doc.toString();
      if (value !== now) view.dispatch({ changes: { from: 0, to: now.length, insert: value }, annotations: fromPage.of(true) });
    },
    setLabel(text, describedBy) {
      view.dispatch({ effects: label.reconfigure(labelAttributes(text, describedBy)) });
    },
    setProblem(at, message) {
      if (!at) return view.dispatch(setDiagnostics(view.state, []));
      const doc = view.state.doc;
      const line = doc.line(Math.min(at.line, doc.lines));
      // the rest of the line from the column; at its end ("found end of file"), its last character:
      // a point at the end of a line is hard to see
      const from = Math.max(line.from, Math.min(line.from + at.column, line.to - 1));
      const to = line.to;
      view.dispatch(setDiagnostics(view.state, [{ from, to, severity: "error", message }]));
      view.dispatch({ effects: EditorView.scrollIntoView(from, { y: "nearest" }) });
    },
    destroy: () => view.destroy(),
  };
}
