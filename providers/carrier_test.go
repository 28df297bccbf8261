package providers_test

import (
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

func TestBatchNotifications(t *testing.T) {
	a := messages.SystemNotification{Kind: "tool.stopped", Level: messages.LevelInfo, Message: "a"}
	b := messages.SystemNotification{Kind: "mcp.disconnected", Level: messages.LevelError, Message: "b"}
	msg := providers.Item{Kind: providers.ItemMessage, Text: "hi", Notifications: []messages.SystemNotification{a}}
	call := providers.Item{Kind: providers.ItemAssistant, Text: "x"}
	result := func(ns ...messages.SystemNotification) providers.Item {
		return providers.Item{Kind: providers.ItemToolResult, Notifications: ns}
	}
	tests := []struct {
		name string
		conv []providers.Item
		i    int
		want []messages.SystemNotification
	}{
		{"carrier ends the batch", []providers.Item{call, result(), result(a, b)}, 2, []messages.SystemNotification{a, b}},
		{"carrier followed by a message", []providers.Item{call, result(), result(b), msg}, 2, []messages.SystemNotification{b}},
		{"not the last result", []providers.Item{call, result(), result(a)}, 1, nil},
		{"earlier result's notifications go after the batch", []providers.Item{call, result(a), result(b)}, 2, []messages.SystemNotification{a, b}},
		{"batch without notifications", []providers.Item{call, result(), result()}, 2, nil},
		{"message carrier is not a batch", []providers.Item{msg}, 0, nil},
		{"batches are split by an assistant round", []providers.Item{call, result(a), call, result(b)}, 3, []messages.SystemNotification{b}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := providers.BatchNotifications(tt.conv, tt.i); !slices.Equal(got, tt.want) {
				t.Errorf("BatchNotifications(conv, %d) = %v, want %v", tt.i, got, tt.want)
			}
		})
	}
}
