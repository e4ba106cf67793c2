import { useEffect, useRef, useState } from "react";
import { Button, Group, Select, Text, type OptionsFilter } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { loadOptions, optionText, type Option } from "./props-api.ts";
import type { FormValue, PropDef } from "./prop-types.ts";

// A prop whose options come from its component's options() (integrations §2): asked when the
// list opens, again when the props it may depend on change, searched on the server when the prop
// takes a query (else in the list), and "Load more" while the API gives a context back.

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

const SEARCH_DELAY_MS = 250;
/** searched by the server: the list shows what it answered */
const asAnswered: OptionsFilter = ({ options }) => options;

export function RemoteSelect({ componentId, prop, configured, waiting, value, onChange, ...common }: Props) {
  const { fetch } = useSession();
  const [options, setOptions] = useState<Option[]>([]);
  const [context, setContext] = useState<Record<string, unknown>>();
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string>();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const configuredKey = JSON.stringify(configured);
  /** the inputs the list shown was loaded for; another list is asked when they change */
  const loadedFor = useRef<string | undefined>(undefined);
  const generation = useRef(0);

  const load = async (more: boolean) => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const page = await loadOptions(fetch, componentId, prop.name, {
        configured_props: configured,
        ...(prop.useQuery && query ? { query } : {}),
        ...(more && context ? { prev_context: context } : {}),
      });
      if (mine !== generation.current) return;
      setOptions((old) => (more ? [...old, ...page.options] : page.options));
      setContext(page.context);
      setFailed(undefined);
    } catch (e) {
      if (mine === generation.current) setFailed((e as Error).message);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  };

  const wanted = `${configuredKey}\n${prop.useQuery ? query : ""}`;
  const open = () => {
    if (!waiting && loadedFor.current !== wanted) {
      loadedFor.current = wanted;
      void load(false);
    }
  };
  // a new search (server side), or other props changed while the list was loaded: ask again
  useEffect(() => {
    if (loadedFor.current === undefined || loadedFor.current === wanted || waiting) return;
    const timer = setTimeout(open, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted, waiting]);

  const seen = new Set<string>();
  const data = [...options.map((o) => ({ label: o.label, value: optionText(o.value) })), ...(value ? [{ label: value, value }] : [])].filter((o) => !seen.has(o.value) && seen.add(o.value));
  const chosenLabel = data.find((o) => o.value === value)?.label;
  return (
    <div data-remote-options={prop.name}>
      <Select
        {...common}
        description={waiting ?? common.description}
        disabled={waiting !== undefined}
        placeholder={loading ? "Loading…" : "Choose or search"}
        data={data}
        value={value || null}
        onChange={(v) => onChange(v ?? "")}
        onDropdownOpen={open}
        searchable
        searchValue={search}
        onSearchChange={(s) => {
          setSearch(s);
          // the search box shows the chosen option's label: that is no search
          if (prop.useQuery && s !== chosenLabel) setQuery(s);
        }}
        {...(prop.useQuery ? { filter: asAnswered } : {})}
        nothingFoundMessage={loading ? "Loading…" : failed ? "Could not load the options" : "No options"}
        clearable={!common.required}
        comboboxProps={{ withinPortal: true }}
        error={common.error ?? failed}
      />
      {context && (
        <Group gap="xs" mt={4}>
          <Button size="compact-xs" variant="light" loading={loading} onClick={() => void load(true)}>
            Load more
          </Button>
          <Text size="xs" c="dimmed">
            {options.length} loaded
          </Text>
        </Group>
      )}
    </div>
  );
}
