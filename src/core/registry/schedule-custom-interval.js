import { defineComponent } from "@pipedream/platform";

export default defineComponent({
  key: "schedule-custom-interval",
  name: "Custom Interval",
  version: "0.0.1",
  description: "Emit an event on a schedule: every N seconds, or on a cron expression.",
  type: "source",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Schedule",
      description: "How often to run: every N seconds, or on a cron expression (UTC).",
      default: { intervalSeconds: 60 },
    },
  },
  run(event) {
    const timestamp = event?.timestamp ?? Math.floor(Date.now() / 1000);
    this.$emit({ timestamp }, { summary: new Date(timestamp * 1000).toISOString(), ts: timestamp * 1000 });
  },
});
