package messages

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// RetentionMode says what happens to the events of an agent's journal that
// fall out of its retention window.
type RetentionMode string

const (
	// RetentionArchive moves them into compressed archive segments beside
	// the journal: reads, exports and transcripts still see them.
	RetentionArchive RetentionMode = "archive"
	// RetentionDrop deletes them for good.
	RetentionDrop RetentionMode = "drop"
	// RetentionKeep keeps every event in the journal.
	RetentionKeep RetentionMode = "keep"
)

// ErrInvalidRetention is wrapped by every error of RetentionPolicy.Validate.
var ErrInvalidRetention = errors.New("invalid retention policy")

// RetentionPolicy bounds an agent's journal. An event leaves the journal
// (archived or dropped, by Mode) only when all of these hold: it is
// covered by the agent's newest snapshot, at least KeepEvents newer events
// follow it, and it is older than MaxAge. A zero KeepEvents or MaxAge
// does not hold anything back.
type RetentionPolicy struct {
	Mode       RetentionMode `json:"mode,omitempty"`
	KeepEvents uint64        `json:"keep_events,omitempty"`
	MaxAge     time.Duration `json:"-"`
}

// DefaultRetention is the policy of agents the configuration does not
// name: archive (nothing is lost, export and transcripts read through the
// archive) what is older than a week and not among the newest 10,000 events.
func DefaultRetention() RetentionPolicy {
	return RetentionPolicy{Mode: RetentionArchive, KeepEvents: 10_000, MaxAge: 7 * 24 * time.Hour}
}

// retentionJSON is RetentionPolicy on the wire: max_age is a Go duration
// string ("168h").
type retentionJSON struct {
	Mode       RetentionMode `json:"mode,omitempty"`
	KeepEvents uint64        `json:"keep_events,omitempty"`
	MaxAge     string        `json:"max_age,omitempty"`
}

// MarshalJSON writes max_age as a duration string.
func (p RetentionPolicy) MarshalJSON() ([]byte, error) {
	w := retentionJSON{Mode: p.Mode, KeepEvents: p.KeepEvents}
	if p.MaxAge != 0 {
		w.MaxAge = p.MaxAge.String()
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads max_age as a duration string; an absent mode is archive.
func (p *RetentionPolicy) UnmarshalJSON(b []byte) error {
	var w retentionJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = RetentionPolicy{Mode: w.Mode, KeepEvents: w.KeepEvents}
	if p.Mode == "" {
		p.Mode = RetentionArchive
	}
	if w.MaxAge != "" {
		d, err := time.ParseDuration(w.MaxAge)
		if err != nil {
			return fmt.Errorf("%w: max_age %q is not a duration such as \"168h\" or \"30m\"", ErrInvalidRetention, w.MaxAge)
		}
		p.MaxAge = d
	}
	return nil
}

// Validate names the first unusable field.
func (p RetentionPolicy) Validate() error {
	switch p.Mode {
	case RetentionArchive, RetentionDrop, RetentionKeep:
	default:
		return fmt.Errorf("%w: mode %q must be archive, drop or keep", ErrInvalidRetention, p.Mode)
	}
	if p.MaxAge < 0 {
		return fmt.Errorf("%w: max_age %s must not be negative", ErrInvalidRetention, p.MaxAge)
	}
	return nil
}

// RetentionPolicies is the runtime's configuration of journal retention:
// Default applies to every agent without an entry in Agents; without a
// Default, DefaultRetention does.
type RetentionPolicies struct {
	Default *RetentionPolicy           `json:"default,omitempty"`
	Agents  map[string]RetentionPolicy `json:"agents,omitempty"`
}

// For is the retention policy of agent id.
func (c RetentionPolicies) For(id string) RetentionPolicy {
	if p, ok := c.Agents[id]; ok {
		return p
	}
	if c.Default != nil {
		return *c.Default
	}
	return DefaultRetention()
}

// Validate checks every policy, naming the one at fault.
func (c RetentionPolicies) Validate() error {
	if c.Default != nil {
		if err := c.Default.Validate(); err != nil {
			return fmt.Errorf("retention.default: %w", err)
		}
	}
	for id, p := range c.Agents {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("retention.agents.%s: %w", id, err)
		}
	}
	return nil
}
