import { Badge, Loader } from "@mantine/core";

// One colour per status everywhere (runs, steps, sends): green ended well, red failed, blue is
// going on now, yellow waits, grey never ran or was stopped.

const COLORS: Record<string, string> = {
  running: "blue",
  suspended: "yellow",
  succeeded: "green",
  failed: "red",
  exited: "teal",
  cancelled: "gray",
  skipped: "gray",
  pending: "gray",
  sent: "green",
};

export const statusColor = (status: string): string => COLORS[status] ?? "gray";

export function StatusBadge({ status, size = "sm", waiting }: { status: string; size?: "xs" | "sm" | "md" | "lg"; waiting?: boolean }) {
  // a send that is pending is on its way (yellow), a step that is pending was not reached (grey)
  const color = waiting && status === "pending" ? "yellow" : statusColor(status);
  return (
    <Badge
      component="span"
      color={color}
      variant={status === "skipped" ? "outline" : "light"}
      size={size}
      leftSection={status === "running" ? <Loader size={8} color={color} /> : undefined}
      // a table squeezing its column must not cut the word short
      style={{ flexShrink: 0, minWidth: "max-content" }}
      data-testid="status-badge"
      data-status={status}
    >
      {status}
    </Badge>
  );
}
