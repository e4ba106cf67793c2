import { memo, useState } from "react";

// Readable JSON: keys and values coloured by kind, objects and arrays collapsible. Nodes deeper
// than `openDepth` start collapsed so a big event does not flood the page.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function Scalar({ value }: { value: Json }) {
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === "string") return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="json-number">{String(value)}</span>;
  return <span className="json-bool">{String(value)}</span>;
}

function Node({ name, value, depth, openDepth, last }: { name?: string; value: Json; depth: number; openDepth: number; last: boolean }) {
  const composite = typeof value === "object" && value !== null;
  const [open, setOpen] = useState(depth < openDepth);
  const label = name !== undefined && (
    <>
      <span className="json-key">{JSON.stringify(name)}</span>:{" "}
    </>
  );
  const comma = last ? "" : ",";
  if (!composite) {
    return (
      <div>
        {label}
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const entries: [string | undefined, Json][] = Array.isArray(value) ? value.map((v) => [undefined, v]) : Object.entries(value);
  const [openMark, closeMark] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    return (
      <div>
        {label}
        {openMark}
        {closeMark}
        {comma}
      </div>
    );
  }
  return (
    <div>
      <button type="button" className="json-toggle" onClick={() => setOpen(!open)} aria-expanded={open} title={open ? "collapse" : "expand"}>
        {open ? "▾" : "▸"}
      </button>{" "}
      {label}
      {openMark}
      {open ? (
        <>
          <div className="json-children">
            {entries.map(([k, v], i) => (
              <Node key={k ?? i} name={k} value={v} depth={depth + 1} openDepth={openDepth} last={i === entries.length - 1} />
            ))}
          </div>
          {closeMark}
          {comma}
        </>
      ) : (
        <button type="button" className="json-toggle" onClick={() => setOpen(true)}>
          {` ${entries.length} ${Array.isArray(value) ? (entries.length === 1 ? "item" : "items") : entries.length === 1 ? "key" : "keys"} `}
          {closeMark}
          {comma}
        </button>
      )}
    </div>
  );
}

export const JsonView = memo(function JsonView({ value, openDepth = 2 }: { value: unknown; openDepth?: number }) {
  return (
    <div className="json" data-testid="json">
      <Node value={(value ?? null) as Json} depth={0} openDepth={openDepth} last />
    </div>
  );
});
