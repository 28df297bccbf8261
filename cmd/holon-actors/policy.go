package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// parsePolicy reads --policy: a JSON object, or a file holding one; ""
// is no policy.
func parsePolicy(arg string) (*messages.CommandPolicy, error) {
	if arg == "" {
		return nil, nil
	}
	src := []byte(arg)
	if !strings.HasPrefix(strings.TrimSpace(arg), "{") {
		b, err := os.ReadFile(arg)
		if err != nil {
			return nil, usage(fmt.Errorf("--policy: %w: give the policy as JSON ({\"deny\": [\"curl\"]}) or a file holding it", err))
		}
		src = b
	}
	dec := json.NewDecoder(strings.NewReader(string(src)))
	dec.DisallowUnknownFields()
	var p messages.CommandPolicy
	if err := dec.Decode(&p); err != nil {
		return nil, usage(fmt.Errorf("--policy: %w: want {\"allow\": [...], \"deny\": [...], \"confine_to_root\": true|false}", err))
	}
	if err := p.Validate(); err != nil {
		return nil, usage(fmt.Errorf("--policy: %w", err))
	}
	return &p, nil
}
