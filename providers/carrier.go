package providers

import "github.com/holon-actors/holon-actors/messages"

// BatchNotifications returns the system notifications a tool-result batch
// carries when conv[i] ends that batch (a tool result not followed by
// another tool result), in conversation order; nil for any other item.
// Carriers put them on the batch's last result; should an earlier result
// carry some, they still go after the whole batch, so transports never
// place runtime text between a tool call and its output.
func BatchNotifications(conv []Item, i int) []messages.SystemNotification {
	if conv[i].Kind != ItemToolResult || i+1 < len(conv) && conv[i+1].Kind == ItemToolResult {
		return nil
	}
	start := i
	for start > 0 && conv[start-1].Kind == ItemToolResult {
		start--
	}
	var out []messages.SystemNotification
	for _, it := range conv[start : i+1] {
		out = append(out, it.Notifications...)
	}
	return out
}
