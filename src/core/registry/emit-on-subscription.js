import { defineComponent } from "@pipedream/platform";

export default defineComponent({
  key: "emit-on-subscription",
  name: "Emit On Subscription",
  version: "0.0.1",
  description: "Re-emit every event delivered by the sources and workflows this source subscribes to.",
  type: "source",
  props: {},
  run(event) {
    const summary = event !== null && typeof event === "object" && typeof event.summary === "string" ? event.summary : "Received event";
    this.$emit(event, { summary, ts: Date.now() });
  },
});
