package clustere2e

import (
	"net/http"
	"strings"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// trigger makes (or returns) agent's external trigger through n and
// answers its id and token.
func (c *cluster) trigger(n *runNode, agent string) (id, token string) {
	c.t.Helper()
	var capa control.TriggerCapability
	status, _ := n.call(http.MethodPost, "/control/agents/"+agent+"/trigger", nil, &capa)
	i := strings.LastIndex(capa.TriggerURL, "/triggers/")
	if (status != http.StatusCreated && status != http.StatusOK) || i < 0 {
		c.t.Fatalf("trigger of %s through %s = %d %+v", agent, n.name, status, capa)
	}
	return capa.ID, capa.TriggerURL[i+len("/triggers/"):]
}

// deliver sends one trigger delivery with its delivery id in a webhook
// header through n; it answers the status, the result and the node that
// served it.
func (c *cluster) deliver(n *runNode, token, delivery string) (int, control.TriggerResult, string) {
	var res control.TriggerResult
	status, h := n.callWith(http.MethodPost, "/triggers/"+token, map[string]string{"source": "ci", "reason": "build done"},
		&res, map[string]string{"X-GitHub-Delivery": delivery})
	return status, res, h.Get("X-Holon-Node")
}

// wakeHints counts agent's wake hints from trigger id in its journal.
func (c *cluster) wakeHints(agent, id string) int {
	c.t.Helper()
	n := 0
	for _, ev := range c.journal(agent) {
		if ev.Type != messages.EventWakeHintRecorded {
			continue
		}
		p, err := ev.Decode()
		if err != nil {
			c.t.Fatalf("%s event %d: %v", agent, ev.Seq, err)
		}
		if strings.HasPrefix(p.(messages.WakeHintRecorded).Source, "external_trigger:"+id) {
			n++
		}
	}
	return n
}

// triggerEverywhere makes agent's trigger through one node, finds the
// same URL through another, and delivers through every node of order: each
// delivery is served at owner and wakes the agent once; a delivery id
// repeated through another node is a duplicate. It answers the trigger's
// id and token.
func (c *cluster) triggerEverywhere(agent, owner string, order []*runNode) (id, token string) {
	c.t.Helper()
	id, token = c.trigger(order[len(order)-1], agent)
	if again, tok := c.trigger(order[0], agent); again != id || tok != token {
		c.t.Errorf("the trigger through %s = %s, through %s %s; want the same trigger and URL", order[0].name, again, order[len(order)-1].name, id)
	}
	for _, n := range order {
		status, res, served := c.deliver(n, token, "d-"+n.name)
		if status != http.StatusAccepted || !res.Accepted || res.Duplicate || served != owner {
			c.t.Errorf("delivery through %s = %d %+v served on %q; want 202, accepted, not a duplicate, on %s", n.name, status, res, served, owner)
		}
	}
	status, res, _ := c.deliver(order[1], token, "d-"+order[0].name)
	if status != http.StatusAccepted || !res.Duplicate {
		c.t.Errorf("%s's delivery repeated through %s = %d %+v; want a duplicate", order[0].name, order[1].name, status, res)
	}
	if n := c.wakeHints(agent, id); n != len(order) {
		c.t.Errorf("%d wake hints from the trigger after %d deliveries and a duplicate; want %d", n, len(order), len(order))
	}
	return id, token
}
