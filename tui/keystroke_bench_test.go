package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/control"
)

// BenchmarkKeystroke is the console's own work for one key: the update
// and the repaint of an 80×24 screen over maxEvents events of tool
// turns, in verbose.
func BenchmarkKeystroke(b *testing.B) {
	f, turn := toolTurn(b)
	var evs []control.StreamEvent
	for len(evs) < maxEvents {
		for _, ev := range turn {
			ev.Provenance.EventSeq = uint64(len(evs) + 1)
			evs = append(evs, ev)
		}
	}
	m := New(b.Context(), f.c, Options{Agent: "main", Display: DisplayVerbose})
	defer m.Close()
	m.loaded = true
	m.add(evs)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.View()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%40 == 0 {
			m.composer.Reset()
		}
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune('a' + i%26)}})
		_ = m.View()
		i++
	}
}
