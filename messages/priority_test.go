package messages_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestPriorityRank(t *testing.T) {
	order := []messages.Priority{
		messages.PriorityInterject, messages.PriorityNext, messages.PriorityNormal, messages.PriorityBackground, "bogus",
	}
	for i, p := range order {
		if got := p.Rank(); got != i {
			t.Errorf("%q.Rank() = %d, want %d", p, got, i)
		}
	}
}

func TestParsePriorityLegacyAlias(t *testing.T) {
	p, err := messages.ParsePriority("interrupt")
	if err != nil || p != messages.PriorityInterject {
		t.Errorf(`ParsePriority("interrupt") = %q, %v; want %q`, p, err, messages.PriorityInterject)
	}
	if messages.Priority("interrupt").Valid() {
		t.Error(`Priority("interrupt").Valid() = true; the alias is accepted on input only`)
	}
}
