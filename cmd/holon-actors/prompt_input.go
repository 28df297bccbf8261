package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/holon-actors/holon-actors/control"
)

// stdin is where `prompt -` reads its text.
var stdin io.Reader = os.Stdin

// maxPromptBytes bounds a prompt read from stdin or a file: what fits in
// a control request with room for its envelope.
const maxPromptBytes = control.MaxBodyBytes - 4<<10

// text is the prompt's text: the arguments, stdin for a lone -, or --file.
func (p *promptCmd) text(e *env) (string, error) {
	var (
		text string
		err  error
	)
	switch {
	case p.File != "" && len(p.Text) > 0:
		return "", usage(errors.New("give the prompt as text or with --file, not both"))
	case p.File != "":
		text, err = readPrompt(p.File, func() (io.ReadCloser, error) { return os.Open(p.File) })
	case len(p.Text) == 1 && p.Text[0] == "-":
		text, err = readPrompt("stdin", func() (io.ReadCloser, error) { return io.NopCloser(stdin), nil })
	case len(p.Text) == 0:
		return "", usage(errors.New("no prompt: give its text, - to read it from stdin, or --file FILE"))
	default:
		text = strings.Join(p.Text, " ")
	}
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" {
		return "", usage(errors.New("the prompt is empty or only whitespace: give its text"))
	}
	return text, nil
}

// readPrompt reads a prompt of at most maxPromptBytes of UTF-8 from what
// open opens, named name in errors, without its final line ends.
func readPrompt(name string, open func() (io.ReadCloser, error)) (string, error) {
	r, err := open()
	if err != nil {
		return "", usage(fmt.Errorf("read the prompt: %w", err))
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxPromptBytes+1))
	switch {
	case errors.Is(err, syscall.EISDIR):
		return "", usage(fmt.Errorf("read the prompt: %s is a directory: give a file", name))
	case err != nil:
		return "", fmt.Errorf("read the prompt from %s: %w", name, err)
	case len(b) > maxPromptBytes:
		return "", usage(fmt.Errorf("the prompt in %s is over %d KiB: send a shorter one, or put the material in a file the agent reads", name, maxPromptBytes>>10))
	case !utf8.Valid(b):
		return "", usage(fmt.Errorf("the prompt in %s is not UTF-8 text", name))
	}
	return strings.TrimRight(string(b), "\r\n"), nil // the file's last line end is not part of the prompt
}
