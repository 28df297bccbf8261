package tools

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CharsPerToken is the estimate behind every token budget: a budget of n
// estimated tokens allows n*CharsPerToken characters of model-visible
// output.
const CharsPerToken = 4

// The environment variables that override a Budget.
const (
	EnvDefaultToolOutputTokens = "HOLON_DEFAULT_TOOL_OUTPUT_TOKENS"
	EnvMaxToolOutputTokens     = "HOLON_MAX_TOOL_OUTPUT_TOKENS"
)

// ErrInvalidBudget is returned for a budget that is not positive or whose
// default exceeds its maximum.
var ErrInvalidBudget = errors.New("tools: invalid tool output budget")

// Budget bounds how much tool output re-enters the model's context, in
// estimated tokens. DefaultTokens applies when a call asks for nothing;
// MaxTokens caps what a call (max_output_tokens) may ask for.
type Budget struct {
	DefaultTokens int `json:"default_tool_output_tokens"`
	MaxTokens     int `json:"max_tool_output_tokens"`
}

// DefaultBudget is 8,000 estimated tokens (about 32,000 characters),
// capped at 64,000.
func DefaultBudget() Budget { return Budget{DefaultTokens: 8000, MaxTokens: 64000} }

// Validate reports a budget that cannot be used.
func (b Budget) Validate() error {
	if b.DefaultTokens <= 0 || b.MaxTokens <= 0 {
		return fmt.Errorf("%w: default %d and max %d must both be positive", ErrInvalidBudget, b.DefaultTokens, b.MaxTokens)
	}
	if b.DefaultTokens > b.MaxTokens {
		return fmt.Errorf("%w: default %d exceeds max %d; raise the max or lower the default", ErrInvalidBudget, b.DefaultTokens, b.MaxTokens)
	}
	return nil
}

// WithEnv returns b overridden by HOLON_DEFAULT_TOOL_OUTPUT_TOKENS and
// HOLON_MAX_TOOL_OUTPUT_TOKENS as getenv reports them (os.Getenv in the
// runtime); unset or empty variables keep b's values. The result is
// validated: a value that is not a positive integer, or a default above
// the max, is an error naming the variable.
func (b Budget) WithEnv(getenv func(string) string) (Budget, error) {
	for _, v := range []struct {
		name string
		dst  *int
	}{{EnvDefaultToolOutputTokens, &b.DefaultTokens}, {EnvMaxToolOutputTokens, &b.MaxTokens}} {
		s := strings.TrimSpace(getenv(v.name))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return Budget{}, fmt.Errorf("%w: %s=%q is not a positive integer number of tokens", ErrInvalidBudget, v.name, s)
		}
		*v.dst = n
	}
	if err := b.Validate(); err != nil {
		return Budget{}, fmt.Errorf("budget from %s and %s: %w", EnvDefaultToolOutputTokens, EnvMaxToolOutputTokens, err)
	}
	return b, nil
}

// Tokens is the budget a call gets when it asks for requested tokens:
// the default for 0 or less, otherwise requested capped at MaxTokens.
func (b Budget) Tokens(requested int) int {
	if b.DefaultTokens <= 0 || b.MaxTokens <= 0 {
		b = DefaultBudget()
	}
	switch {
	case requested <= 0:
		return min(b.DefaultTokens, b.MaxTokens)
	case requested > b.MaxTokens:
		return b.MaxTokens
	}
	return requested
}

// Chars is Tokens(requested) in characters.
func (b Budget) Chars(requested int) int { return b.Tokens(requested) * CharsPerToken }
