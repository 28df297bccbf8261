package testkit_test

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// The scripted provider answers by position in the conversation: the same
// conversation always gets the same reply, so a request repeated after a
// crash is answered as before, and Requests shows the repeat.
func ExampleProvider() {
	p := testkit.NewProvider(
		testkit.Reply("Checking.", testkit.Call("call_1", "echo", `{"text":"ping"}`)),
		testkit.Reply("Done."),
	)
	ctx := context.Background()
	first, _ := p.Complete(ctx, providers.Request{Conversation: []providers.Item{{Kind: providers.ItemMessage, Text: "Echo ping."}}})
	second, _ := p.Complete(ctx, providers.Request{Conversation: []providers.Item{
		{Kind: providers.ItemMessage, Text: "Echo ping."},
		{Kind: providers.ItemAssistant, Text: first.Text, ToolCalls: first.ToolCalls},
		{Kind: providers.ItemToolResult, CallID: "call_1", Text: "echo: ping"},
	}})
	fmt.Println(first.Text, first.ToolCalls[0].Name)
	fmt.Println(second.Text)
	fmt.Println(len(p.Requests()), "requests")
	// Output:
	// Checking. echo
	// Done.
	// 2 requests
}
