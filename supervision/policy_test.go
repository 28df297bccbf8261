package supervision_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/supervision"
)

func TestDefaultPolicyIsValid(t *testing.T) {
	if err := supervision.DefaultPolicy().Validate(); err != nil {
		t.Fatalf("DefaultPolicy().Validate() = %v, want nil", err)
	}
}

func TestPolicyValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*supervision.Policy)
		field string // empty: valid
	}{
		{"default", func(*supervision.Policy) {}, ""},
		{"zero restarts allowed", func(p *supervision.Policy) { p.MaxRestarts = 0 }, ""},
		{"no backoff", func(p *supervision.Policy) { p.InitialBackoff, p.MaxBackoff = 0, 0 }, ""},
		{"constant backoff", func(p *supervision.Policy) { p.Multiplier = 1 }, ""},
		{"full jitter", func(p *supervision.Policy) { p.Jitter = 1 }, ""},
		{"negative restarts", func(p *supervision.Policy) { p.MaxRestarts = -1 }, "MaxRestarts"},
		{"zero window", func(p *supervision.Policy) { p.Within = 0 }, "Within"},
		{"negative window", func(p *supervision.Policy) { p.Within = -time.Second }, "Within"},
		{"negative initial", func(p *supervision.Policy) { p.InitialBackoff = -1 }, "InitialBackoff"},
		{"cap below initial", func(p *supervision.Policy) { p.MaxBackoff = p.InitialBackoff - 1 }, "MaxBackoff"},
		{"shrinking multiplier", func(p *supervision.Policy) { p.Multiplier = 0.5 }, "Multiplier"},
		{"NaN multiplier", func(p *supervision.Policy) { p.Multiplier = math.NaN() }, "Multiplier"},
		{"infinite multiplier", func(p *supervision.Policy) { p.Multiplier = math.Inf(1) }, "Multiplier"},
		{"negative jitter", func(p *supervision.Policy) { p.Jitter = -0.1 }, "Jitter"},
		{"jitter above 1", func(p *supervision.Policy) { p.Jitter = 1.5 }, "Jitter"},
		{"NaN jitter", func(p *supervision.Policy) { p.Jitter = math.NaN() }, "Jitter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := supervision.DefaultPolicy()
			tt.edit(&p)
			err := p.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, supervision.ErrInvalidPolicy) {
				t.Fatalf("Validate() = %v, want ErrInvalidPolicy", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("Validate() = %q, want it to name %s", err, tt.field)
			}
		})
	}
}
