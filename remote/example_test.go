package remote_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote"
)

// ExampleDial admits a prompt on a node over the cluster protocol and
// follows the agent's events to the turn's brief. nodeAddr is the node's
// run --remote-listen address and clientTLS a directory written by
// `holon-actors ca issue --role client` (the tests start such a node).
func ExampleDial() {
	ctx := context.Background()
	c, err := remote.Dial(ctx, remote.Options{Addr: nodeAddr, TLSDir: clientTLS})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	// Durable when it returns; sent again with the same id if the node
	// does not answer, so it is admitted once.
	res, err := c.Prompt(ctx, "main", control.PromptRequest{Text: "Say hello.", MessageID: "example-1"})
	if err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for ev, err := range c.Events(ctx, "main", res.EventSeq) {
		if err != nil {
			log.Fatal(err)
		}
		if ev.Provenance.Kind != messages.EventBriefRecorded || ev.Provenance.MessageID != res.MessageID {
			continue
		}
		var b messages.BriefRecorded
		if err := json.Unmarshal(ev.Payload, &b); err != nil {
			log.Fatal(err)
		}
		fmt.Println(b.Brief.Text)
		break
	}
	// Output: Hello from the node.
}
