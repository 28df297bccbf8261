package tlsca_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// TestLoadRefusesACertificateOutOfItsValidity: an expired or not yet valid
// certificate of the right CA is refused as that, with its dates and
// what to do, not as "not signed by" the CA.
func TestLoadRefusesACertificateOutOfItsValidity(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	now := time.Now()
	if err := tlsca.Init(dir, now.Add(-72*time.Hour)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		issued time.Time
		want   string
	}{
		{"expired", now.Add(-48 * time.Hour), "expired"},
		{"not yet valid", now.Add(48 * time.Hour), "not valid before"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "c")
			if err := tlsca.Issue(dir, tlsca.IssueRequest{Role: tlsca.RoleClient, Name: "c", Out: out, Now: tc.issued, Validity: time.Hour}); err != nil {
				t.Fatal(err)
			}
			_, err := tlsca.Load(out, tlsca.RoleClient)
			if !errors.Is(err, tlsca.ErrOutOfValidity) || !strings.Contains(err.Error(), tc.want) ||
				strings.Contains(err.Error(), "not signed") || !strings.Contains(err.Error(), "ca issue") {
				t.Errorf("Load = %v, want ErrOutOfValidity saying %q and how to issue a new one", err, tc.want)
			}
		})
	}
}
