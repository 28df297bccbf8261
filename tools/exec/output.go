package exec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/holon-actors/holon-actors/tools"
)

// commandOutput is the projection of a finished command's output files:
// bounded previews, and artifact references for the truncated streams.
type commandOutput struct {
	stdout, stderr, combined *tools.ArtifactRef
	stdoutPrev, stderrPrev   *Preview
	combinedPrev             *Preview
}

// collectOutput previews the output files within chars characters in all.
// A stream that fits is shown whole and its file removed; a stream that
// does not is shown head and tail and its file kept as an artifact.
func collectOutput(a *tools.ArtifactDir, files OutputFiles, chars int) (commandOutput, error) {
	var out commandOutput
	if files.Combined != "" {
		p, err := ReadPreview(a, files.Combined, chars)
		if err != nil {
			return out, err
		}
		out.combinedPrev = &p
		out.combined = keepIfTruncated(a, files.Combined, p)
		removeDirIfEmpty(a, files.Combined)
		return out, nil
	}
	outSize, errSize := fileSize(a.Path(files.Stdout)), fileSize(a.Path(files.Stderr))
	errBudget := chars / 4
	if outSize < int64(chars-errBudget) {
		errBudget = chars - int(outSize) // a short stdout leaves the rest to stderr
	}
	outBudget := chars - int(min(errSize, int64(errBudget)))
	po, err := ReadPreview(a, files.Stdout, outBudget)
	if err != nil {
		return out, err
	}
	pe, err := ReadPreview(a, files.Stderr, errBudget)
	if err != nil {
		return out, err
	}
	po.Text, pe.Text = readable(po, outBudget), readable(pe, errBudget)
	out.stdoutPrev, out.stderrPrev = &po, &pe
	out.stdout = keepIfTruncated(a, files.Stdout, po)
	out.stderr = keepIfTruncated(a, files.Stderr, pe)
	removeDirIfEmpty(a, files.Stdout)
	return out, nil
}

// readable shows a whole JSON output indented when that still fits.
func readable(p Preview, budget int) string {
	if p.Truncated {
		return p.Text
	}
	if r := tools.ReadableOutput(p.Text); len(r) <= budget {
		return r
	}
	return p.Text
}

func keepIfTruncated(a *tools.ArtifactDir, name string, p Preview) *tools.ArtifactRef {
	if p.Truncated {
		r := a.Ref(name)
		return &r
	}
	_ = a.Remove(name)
	return nil
}

func removeDirIfEmpty(a *tools.ArtifactDir, name string) {
	_ = os.Remove(filepath.Dir(a.Path(name))) // fails, harmlessly, while a file remains
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// apply sets the completion fields of res, with artifact indices by role.
func (o commandOutput) apply(res *ExecResult) {
	index := func(ref *tools.ArtifactRef) *int {
		if ref == nil {
			return nil
		}
		res.Artifacts = append(res.Artifacts, *ref)
		return new(len(res.Artifacts) - 1)
	}
	truncated := false
	if o.combinedPrev != nil {
		res.OutputPreview = previewText(o.combinedPrev)
		truncated = o.combinedPrev.Truncated
		res.OutputArtifact = index(o.combined)
	} else {
		res.StdoutPreview, res.StderrPreview = previewText(o.stdoutPrev), previewText(o.stderrPrev)
		res.StdoutTruncated, res.StderrTruncated = o.stdoutPrev.Truncated, o.stderrPrev.Truncated
		truncated = res.StdoutTruncated || res.StderrTruncated
		res.StdoutArtifact = index(o.stdout)
		res.StderrArtifact = index(o.stderr)
	}
	res.Truncated = &truncated
}

// previewText is nil for an empty stream, shown as null.
func previewText(p *Preview) *string {
	if p == nil || p.Bytes == 0 {
		return nil
	}
	return &p.Text
}

// initialOutput is the preview shown at promotion: the combined stream,
// or stdout followed by stderr, within chars. The files stay: the task
// keeps writing them.
func initialOutput(a *tools.ArtifactDir, files OutputFiles, chars int) (string, bool) {
	if files.Combined != "" {
		p, _ := ReadPreview(a, files.Combined, chars)
		return p.Text, p.Truncated
	}
	pe, _ := ReadPreview(a, files.Stderr, chars/4)
	po, _ := ReadPreview(a, files.Stdout, chars-len(pe.Text))
	if pe.Bytes == 0 {
		return po.Text, po.Truncated
	}
	return fmt.Sprintf("%s\n[stderr]\n%s", po.Text, pe.Text), po.Truncated || pe.Truncated
}

func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("exec: details do not marshal: %v", err)) // programmer error
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func jsonUnmarshal(b []byte, v any) error {
	if len(b) == 0 {
		return errNoResult
	}
	return json.Unmarshal(b, v)
}
