package exec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/holon-actors/holon-actors/tools"
)

// commandOutput is the projection of a finished command's output:
// bounded previews, and artifact references for the truncated streams.
type commandOutput struct {
	stdout, stderr, combined *tools.ArtifactRef
	stdoutPrev, stderrPrev   *Preview
	combinedPrev             *Preview
}

// collectOutput previews p's output within chars characters in all. A
// stream that fits is shown whole (and its file, if it spilled, removed);
// a stream that does not is shown head and tail and kept whole as an
// artifact.
func collectOutput(p *Process, chars int) (commandOutput, error) {
	var out commandOutput
	if p.exitFile != "" {
		_ = p.artifacts.Remove(p.exitFile) // the command's end is in the result
	}
	if p.combined != nil {
		pv, err := p.combined.preview(chars)
		if err != nil {
			return out, err
		}
		out.combinedPrev = &pv
		out.combined, err = keepIfTruncated(p.combined, pv)
		removeDirIfEmpty(p.artifacts, p.files.Combined)
		return out, err
	}
	outSize, errSize := p.stdout.sizeNow(), p.stderr.sizeNow()
	errBudget := chars / 4
	if outSize < int64(chars-errBudget) {
		errBudget = chars - int(outSize) // a short stdout leaves the rest to stderr
	}
	outBudget := chars - int(min(errSize, int64(errBudget)))
	po, err := p.stdout.preview(outBudget)
	if err != nil {
		return out, err
	}
	pe, err := p.stderr.preview(errBudget)
	if err != nil {
		return out, err
	}
	out.stdoutPrev, out.stderrPrev = &po, &pe
	if out.stdout, err = keepIfTruncated(p.stdout, po); err != nil {
		return out, err
	}
	if out.stderr, err = keepIfTruncated(p.stderr, pe); err != nil {
		return out, err
	}
	removeDirIfEmpty(p.artifacts, p.files.Stdout)
	return out, nil
}

func keepIfTruncated(s *stream, p Preview) (*tools.ArtifactRef, error) {
	if !p.Truncated {
		s.discard()
		return nil, nil
	}
	if err := s.spill(); err != nil {
		return nil, err
	}
	r := s.arts.Ref(s.name)
	return &r, nil
}

func removeDirIfEmpty(a *tools.ArtifactDir, name string) {
	_ = os.Remove(filepath.Dir(a.Path(name))) // fails, harmlessly, while a file remains or when it was never made
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
// or stdout followed by stderr, within chars.
func initialOutput(p *Process, chars int) (string, bool) {
	if p.combined != nil {
		pv, _ := p.combined.preview(chars)
		return pv.Text, pv.Truncated
	}
	pe, _ := p.stderr.preview(chars / 4)
	po, _ := p.stdout.preview(chars - len(pe.Text))
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
