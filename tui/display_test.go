package tui

import (
	"strings"
	"testing"
)

func TestParseDisplay(t *testing.T) {
	tests := []struct {
		in      string
		want    Display
		wantErr string
	}{
		{"3", DisplayInfo, ""},
		{"info", DisplayInfo, ""},
		{"4", DisplayVerbose, ""},
		{" Verbose ", DisplayVerbose, ""},
		{"5", DisplayDebug, ""},
		{"debug", DisplayDebug, ""},
		{"trace", 0, "use /events"},
		{"6", 0, "info (3), verbose (4) or debug (5)"},
		{"", 0, "not a mode"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDisplay(tt.in)
			switch {
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("ParseDisplay(%q) = %v, %v; want an error saying %q", tt.in, got, err, tt.wantErr)
			case tt.wantErr == "" && (err != nil || got != tt.want):
				t.Fatalf("ParseDisplay(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}
