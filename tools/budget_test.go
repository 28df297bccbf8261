package tools_test

import (
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
)

func TestBudgetWithEnv(t *testing.T) {
	cases := []struct {
		name     string
		env      map[string]string
		def, max int
		wantErr  bool
	}{
		{"unset", nil, 8000, 64000, false},
		{"both", map[string]string{tools.EnvDefaultToolOutputTokens: "1000", tools.EnvMaxToolOutputTokens: "2000"}, 1000, 2000, false},
		{"spaces", map[string]string{tools.EnvDefaultToolOutputTokens: " 500 "}, 500, 64000, false},
		{"not a number", map[string]string{tools.EnvDefaultToolOutputTokens: "lots"}, 0, 0, true},
		{"zero", map[string]string{tools.EnvMaxToolOutputTokens: "0"}, 0, 0, true},
		{"default above max", map[string]string{tools.EnvMaxToolOutputTokens: "100"}, 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := tools.DefaultBudget().WithEnv(func(k string) string { return c.env[k] })
			if c.wantErr {
				if !errors.Is(err, tools.ErrInvalidBudget) {
					t.Fatalf("err = %v, want ErrInvalidBudget", err)
				}
				return
			}
			if err != nil || b.DefaultTokens != c.def || b.MaxTokens != c.max {
				t.Fatalf("WithEnv = %+v, %v; want %d/%d", b, err, c.def, c.max)
			}
		})
	}
}

func TestBudgetChars(t *testing.T) {
	b := tools.DefaultBudget()
	for _, c := range []struct{ req, want int }{{0, 32000}, {-5, 32000}, {100, 400}, {1_000_000, 256000}} {
		if got := b.Chars(c.req); got != c.want {
			t.Errorf("Chars(%d) = %d, want %d", c.req, got, c.want)
		}
	}
}
