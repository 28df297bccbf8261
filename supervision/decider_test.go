package supervision_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/supervision"
)

type verdict bool

func (v verdict) Permanent() bool { return bool(v) }

type verdictError bool

func (v verdictError) Error() string   { return "verdict" }
func (v verdictError) Permanent() bool { return bool(v) }

func TestDecide(t *testing.T) {
	errCorrupt := errors.New("journal corrupt")
	tests := []struct {
		name   string
		reason any
		want   actor.Directive
	}{
		{"string", "boom", actor.RestartDirective},
		{"nil", nil, actor.RestartDirective},
		{"plain error", errCorrupt, actor.RestartDirective},
		{"Permanent error", supervision.Permanent(errCorrupt), actor.StopDirective},
		{"wrapped Permanent error", fmt.Errorf("replay agent a1: %w", supervision.Permanent(errCorrupt)), actor.StopDirective},
		{"value saying permanent", verdict(true), actor.StopDirective},
		{"value saying transient", verdict(false), actor.RestartDirective},
		{"error saying transient", fmt.Errorf("x: %w", verdictError(false)), actor.RestartDirective},
		{"error saying permanent", fmt.Errorf("x: %w", verdictError(true)), actor.StopDirective},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := supervision.Decide(tt.reason); got != tt.want {
				t.Errorf("Decide(%v) = %v, want %v", tt.reason, got, tt.want)
			}
		})
	}
}

func TestPermanentKeepsChain(t *testing.T) {
	errCorrupt := errors.New("journal corrupt")
	err := supervision.Permanent(errCorrupt)
	if !errors.Is(err, errCorrupt) {
		t.Errorf("errors.Is(Permanent(err), err) = false, want true")
	}
	if err.Error() != errCorrupt.Error() {
		t.Errorf("Permanent(err).Error() = %q, want %q", err, errCorrupt)
	}
	if supervision.Permanent(nil) != nil {
		t.Errorf("Permanent(nil) != nil")
	}
}
