import { notifications } from "@mantine/notifications";

// Every action's outcome is a toast (bottom right), so a failure shows even when the place that
// started it has scrolled away or the page has changed: failures stay until closed.

export function toastFailed(what: string, message: string): void {
  notifications.show({ color: "red", title: `${what} failed`, message, autoClose: false, withCloseButton: true });
}

export function toastDone(message: string): void {
  notifications.show({ color: "green", message });
}
