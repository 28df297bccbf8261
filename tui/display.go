package tui

import (
	"fmt"
	"strings"
)

// Display is how much of an agent's activity the main conversation
// shows. The numbers are the visibility levels they reach: 3 shows
// results, 4 adds progress, 5 adds curated execution detail. Raw events
// are not a display mode: /events shows them.
type Display int

// The display modes.
const (
	DisplayInfo    Display = 3
	DisplayVerbose Display = 4
	DisplayDebug   Display = 5
)

// String returns the mode's name.
func (d Display) String() string {
	switch d {
	case DisplayInfo:
		return "info"
	case DisplayVerbose:
		return "verbose"
	case DisplayDebug:
		return "debug"
	}
	return fmt.Sprintf("Display(%d)", int(d))
}

// ParseDisplay reads a display mode by name or number.
func ParseDisplay(s string) (Display, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "3", "info":
		return DisplayInfo, nil
	case "4", "verbose":
		return DisplayVerbose, nil
	case "5", "debug":
		return DisplayDebug, nil
	case "trace":
		return 0, fmt.Errorf("trace is raw event inspection, not a display mode: use /events")
	}
	return 0, fmt.Errorf("display %q is not a mode: use info (3), verbose (4) or debug (5)", s)
}
