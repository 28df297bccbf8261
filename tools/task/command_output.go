package task

import (
	"fmt"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// CommandOutput projects a command task's output files into the output
// fields of an OutputTask: a head-and-tail preview within maxChars (stdout
// then stderr, or the terminal transcript), path-only artifacts, and
// output_artifact indexing the main output file. It reads only the files,
// so it serves a live task (whose output was spilled at promotion) and a
// task recovered after a restart alike.
func CommandOutput(arts *tools.ArtifactDir, files exec.OutputFiles, maxChars int, into *OutputTask) error {
	main := files.Combined
	if main == "" {
		main = files.Stdout
	}
	var errPrev exec.Preview
	if files.Stderr != "" {
		var err error
		if errPrev, err = exec.ReadPreview(arts, files.Stderr, maxChars/4); err != nil {
			return fmt.Errorf("task output: %w", err)
		}
	}
	mainPrev, err := exec.ReadPreview(arts, main, maxChars-len(errPrev.Text))
	if err != nil {
		return fmt.Errorf("task output: %w", err)
	}
	into.OutputPreview = mainPrev.Text
	if errPrev.Bytes > 0 {
		into.OutputPreview = fmt.Sprintf("%s\n[stderr]\n%s", mainPrev.Text, errPrev.Text)
	}
	into.OutputTruncated = mainPrev.Truncated || errPrev.Truncated
	into.Artifacts = append(into.Artifacts, arts.Ref(main))
	into.OutputArtifact = new(len(into.Artifacts) - 1)
	if errPrev.Bytes > 0 {
		into.Artifacts = append(into.Artifacts, arts.Ref(files.Stderr))
	}
	return nil
}
