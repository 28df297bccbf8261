package tools_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
)

func TestArtifactScrub(t *testing.T) {
	const canary = "sk-artifact-canary-0123456789"
	redact := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(canary), []byte("[redacted]")) }
	tests := []struct {
		name, content, want string
		redact              func([]byte) []byte
	}{
		{"secret scrubbed", "key=" + canary + "\n", "key=[redacted]\n", redact},
		{"nothing to scrub", "plain output\n", "plain output\n", redact},
		{"no redactor", "key=" + canary + "\n", "key=" + canary + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arts, err := tools.NewArtifactDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if tt.redact != nil {
				arts = arts.WithRedact(tt.redact)
			}
			f, err := arts.Create("exec/cmd_1/stdout.log")
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(tt.content)
			f.Close()
			n, err := arts.Scrub("exec/cmd_1/stdout.log")
			got, _ := os.ReadFile(arts.Path("exec/cmd_1/stdout.log"))
			if err != nil || string(got) != tt.want || n != int64(len(tt.want)) {
				t.Fatalf("Scrub = %d, %v; file %q, want %q", n, err, got, tt.want)
			}
		})
	}
}
