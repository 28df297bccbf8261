package apidoc

import "testing"

// TestKindsHaveExamples: every error kind has a status and an example
// message and hint for the document.
func TestKindsHaveExamples(t *testing.T) {
	for _, ks := range kindStatus {
		if ex := kindExamples[ks.kind]; ex[0] == "" || ex[1] == "" || ks.status == 0 {
			t.Errorf("kind %s: status %d, example %q; want all", ks.kind, ks.status, ex)
		}
	}
	if len(kindExamples) != len(kindStatus) {
		t.Errorf("%d examples for %d kinds", len(kindExamples), len(kindStatus))
	}
}
