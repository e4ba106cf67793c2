import { useRef, useState } from "react";
import { Combobox, InputBase, ScrollArea, Text, useCombobox } from "@mantine/core";
import { optionText } from "./props-api.ts";
import type { FormValue, PropDef } from "./prop-types.ts";
import { useRemoteOptions } from "./use-remote-options.ts";

// A prop whose options come from its component's options() (docs/writing-components.md, "Dynamic props"): asked when the
// list opens, again when the props it may depend on change, searched on the server when the prop
// takes a query (else in the list), and a "Load more" entry at the foot of the open list (under
// its scrolled options, an option for the keyboard too) while the API gives a context back: the
// list stays open, the next page added above it.

interface Props {
  componentId: string;
  prop: PropDef;
  /** the form's other values, as the API takes them */
  configured: Record<string, unknown>;
  /** why it can't load yet (an account to choose first), if so */
  waiting?: string;
  value: string;
  onChange: (v: FormValue) => void;
  label: string;
  description: string;
  error?: string;
  required: boolean;
}

/** the "Load more" entry's value: the options' are their index in the list */
const MORE = -1;

export function RemoteSelect({ componentId, prop, configured, waiting, value, onChange, ...common }: Props) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const opened = combobox.dropdownOpened;
  /** what is typed in the box; null while it shows the chosen option */
  const [typed, setTyped] = useState<string | null>(null);
  const remote = useRemoteOptions(componentId, prop, configured, typed ?? "", opened, waiting !== undefined);
  // labels of options chosen before: the box shows one when its list is another (another search)
  const labels = useRef(new Map<string, string>());

  const seen = new Set<string>();
  const data = remote.options.map((o) => ({ label: o.label, value: optionText(o.value) })).filter((o) => !seen.has(o.value) && seen.add(o.value));
  for (const o of data) if (o.value === value) labels.current.set(o.value, o.label);
  const chosenLabel = value ? (labels.current.get(value) ?? value) : "";
  // searched by the server: the list is what it answered; else the list is searched here
  const needle = !prop.useQuery && typed ? typed.toLowerCase() : "";
  const shown = data.map((o, i) => ({ ...o, i })).filter((o) => !needle || o.label.toLowerCase().includes(needle));

  const submit = (v: string | number) => {
    if (v === MORE) {
      // the list stays open; the entry marked by the keyboard would be another once the page is in
      combobox.resetSelectedOption();
      return remote.more();
    }
    const o = data[Number(v)];
    if (!o) return;
    onChange(o.value);
    setTyped(null);
    combobox.closeDropdown();
  };
  const status = remote.loading && data.length === 0 ? "Loading…" : remote.failed ? "Could not load the options" : "No options";

  return (
    <div data-remote-options={prop.name}>
      <Combobox store={combobox} onOptionSubmit={submit} withinPortal>
        <Combobox.Target>
          <InputBase
            {...common}
            description={waiting ?? common.description}
            error={common.error ?? remote.failed}
            disabled={waiting !== undefined}
            placeholder={remote.loading ? "Loading…" : "Choose or search"}
            value={typed ?? chosenLabel}
            onChange={(e) => {
              setTyped(e.currentTarget.value);
              combobox.openDropdown();
              combobox.resetSelectedOption();
            }}
            onClick={() => combobox.openDropdown()}
            onFocus={() => combobox.openDropdown()}
            onBlur={() => {
              combobox.closeDropdown();
              setTyped(null);
            }}
            rightSection={
              value && !common.required ? <Combobox.ClearButton onClear={() => onChange("")} aria-label={`Clear ${common.label}`} /> : <Combobox.Chevron />
            }
            rightSectionPointerEvents={value && !common.required ? "all" : "none"}
            autoComplete="off"
          />
        </Combobox.Target>
        <Combobox.Dropdown>
          <Combobox.Options>
            <ScrollArea.Autosize mah={260} type="scroll">
              {shown.map((o) => (
                <Combobox.Option key={o.value} value={o.i} active={o.value === value} aria-selected={o.value === value}>
                  {o.label}
                </Combobox.Option>
              ))}
              {shown.length === 0 && <Combobox.Empty>{status}</Combobox.Empty>}
            </ScrollArea.Autosize>
            {/* under the scrolled list, so always in sight while it is open */}
            {remote.hasMore && (
              <Combobox.Option value={MORE} disabled={remote.loading} data-load-more style={{ borderTop: "1px solid var(--mantine-color-default-border)" }}>
                <Text size="sm" c="indigo" fw={500} span>
                  {remote.loading ? "Loading…" : "Load more"}
                </Text>{" "}
                <Text size="xs" c="dimmed" span>
                  ({data.length} loaded)
                </Text>
              </Combobox.Option>
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
    </div>
  );
}
