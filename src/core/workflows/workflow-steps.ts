import type { ComponentRow, UserRow, WorkflowStepRow } from "../../store/port.ts";
import type { ComponentMeta } from "../../runtime/types.ts";
import { invalid, notFound, type FieldProblem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { CoreDeps } from "../deps.ts";
import type { Components } from "../components.ts";
import { accountIdOf, accountRefProblems } from "../accounts/account-refs.ts";
import { checkDataStoreRefs } from "../data-stores/store-refs.ts";
import { normalizeProps } from "../props.ts";
import { expressionProblems } from "./step-expressions.ts";
import type { StepInput } from "./workflow-input.ts";
import type { DynamicProps, Runnable } from "../dynamic-props.ts";
import { ADDED, addedOf, keepAdded } from "../added-props.ts";
import { sha256Hex } from "../../lib/hash.ts";

// A workflow's steps as deployed (docs/writing-workflows.md): each step's code (written in the step, or a saved
// or registry component's), bundled with its npm packages and Node modules as a source's is, its
// props as declared (from analysis) and as configured (checked like a source's configured_props,
// secrets sealed). Prop values are resolved per run on the host (step-props.ts), never baked in.

/** What a client sends back for a secret prop it was shown, to keep the stored value. */
export const SECRET_SHOWN = { secret: true } as const;
const isSecretShown = (v: unknown) => typeof v === "object" && v !== null && (v as { secret?: unknown }).secret === true && Object.keys(v).length === 1;

export class StepDeployer {
  readonly #deps: CoreDeps;
  readonly #components: Components;
  /** a step with reloadProps props: its props are checked against the ones it has so configured */
  readonly #dynamic: DynamicProps | undefined;

  constructor(deps: CoreDeps, components: Components, dynamic?: DynamicProps) {
    this.#deps = deps;
    this.#components = components;
    this.#dynamic = dynamic;
  }

  /** `previous`: the deployed steps an update replaces (a secret sent back as shown keeps its value). */
  async deploy(user: UserRow, inputs: StepInput[], previous: WorkflowStepRow[] = []): Promise<WorkflowStepRow[]> {
    const rows: WorkflowStepRow[] = [];
    const problems: FieldProblem[] = [];
    for (const [i, input] of inputs.entries()) {
      const at = `steps[${i}]`;
      const source = await this.#code(user, input, at);
      // the step it replaces: by the id GET showed, else (a client that sends no ids) by name
      const before = input.id !== undefined ? previous.find((p) => p.id === input.id) : previous.find((p) => p.name === input.name);
      const meta = (await this.#dynamic?.metaFor(user, source.runnable, input.props, before?.props)) ?? source.meta;
      const props = keepAdded(
        normalizeProps(meta, input.props, this.#deps.secrets, before?.props ?? {}, {
          field: `${at}.props`,
          expressions: true,
          keepsSecret: isSecretShown,
        }),
        meta,
        source.meta,
      );
      const secret = new Set(source.meta.props.filter((p) => p.secret).map((p) => p.name));
      problems.push(...(await expressionProblems(input.props ?? {}, `${at}.props`, secret)));
      problems.push(...(await accountRefProblems(this.#deps.store.accounts, user, meta, props, `${at}.props`, "not_found")));
      await checkDataStoreRefs(this.#deps.store.dataStores, user, meta, props, before?.props);
      rows.push({
        id: newId("c_"),
        name: input.name,
        code: source.code,
        ...(source.component ? (source.component.registry ? { key: source.component.key! } : { component_id: source.component.id }) : {}),
        ...(source.bundle ? { bundle: source.bundle } : {}),
        meta: source.meta,
        props,
      });
    }
    if (problems.length) throw invalid("steps are not valid", problems);
    return rows;
  }

  async #code(user: UserRow, input: StepInput, at: string): Promise<{ code: string; bundle: string | undefined; meta: ComponentMeta; component?: ComponentRow; runnable: Runnable }> {
    if (input.code !== undefined) {
      const prepared = await this.#components.prepare(input.code, null, `step "${input.name}": `);
      const hash = sha256Hex(input.code);
      const runnable = { id: `step_${hash.slice(0, 16)}`, code: input.code, code_hash: hash, meta: prepared.meta, bundle: prepared.bundle };
      return { code: input.code, bundle: prepared.bundle?.code, meta: prepared.meta, runnable };
    }
    let component: ComponentRow;
    if (input.component_id !== undefined) {
      const c = input.component_id.startsWith("sc_") ? await this.#deps.store.components.byId(input.component_id) : undefined;
      // another user's component reads as one that doesn't exist
      if (!c || !(c.registry || c.user_id === user.id)) throw notFound("component");
      component = c;
    } else {
      component = await this.#components.registry(input.key!).catch(() => {
        throw invalid("no registry component has that key", [{ field: `${at}.key`, message: `no registry component has the key "${input.key}"` }]);
      });
    }
    return { code: component.code, bundle: component.bundle?.code, meta: component.meta, component, runnable: component };
  }

}

/** A step as GET /workflows/{id} shows it: its code or component, and its props (secrets hidden). */
export function stepView(s: WorkflowStepRow) {
  const props: Record<string, unknown> = {};
  const defs = [...(s.meta?.props ?? []), ...addedOf(s.props)];
  const secret = new Set(defs.filter((p) => p.secret).map((p) => p.name));
  // an account reference holds no secret: it is shown as given
  for (const [name, value] of Object.entries(s.props ?? {})) {
    if (name !== ADDED) props[name] = secret.has(name) && accountIdOf(value) === undefined ? SECRET_SHOWN : value;
  }
  const origin = s.key !== undefined ? { key: s.key } : s.component_id !== undefined ? { component_id: s.component_id } : { code: s.code };
  return { id: s.id, name: s.name, ...origin, props };
}
