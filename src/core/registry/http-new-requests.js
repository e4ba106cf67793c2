import { defineComponent } from "@pipedream/platform";

export default defineComponent({
  key: "http-new-requests",
  name: "New Requests",
  version: "0.0.1",
  description: "Emit an event for each HTTP request sent to the source's endpoint.",
  type: "source",
  props: {
    http: "$.interface.http",
  },
  run(event) {
    this.$emit(event, { summary: `${event.method} ${event.path}`, ts: Date.now() });
  },
});
