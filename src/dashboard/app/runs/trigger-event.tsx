import { Paper } from "@mantine/core";
import { Section } from "./section.tsx";
import { ValueView } from "./value-view.tsx";
import { triggerSummary } from "./trigger-summary.ts";

/** The event that started the run, closed at first: steps.trigger.event as the steps saw it. */
export function TriggerEvent({ event, onShowAll, expanding }: { event: unknown; onShowAll: () => void; expanding: boolean }) {
  return (
    <Paper withBorder px="sm" pb={6} pt={0} data-testid="trigger-event">
      <Section title="Trigger event" hint={triggerSummary(event)}>
        <ValueView value={event} onShowAll={onShowAll} loading={expanding} openDepth={2} />
      </Section>
    </Paper>
  );
}
