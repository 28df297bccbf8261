package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// agentsExportCmd is `holon-actors agents export`.
type agentsExportCmd struct {
	ID     string `arg:"" help:"The agent to export (with its private children)."`
	Output string `short:"o" help:"Write the archive to this file (default: <id>.tar.gz here); - writes it to stdout." placeholder:"FILE"`
	Force  bool   `help:"Overwrite the output file if it exists."`
}

// Run writes the archive, through a temporary file renamed on success,
// so a failed export leaves no file that looks whole.
func (a *agentsExportCmd) Run(ctx context.Context, e *env) error {
	out := a.Output
	if out == "" {
		out = a.ID + ".tar.gz"
	}
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	if out == "-" {
		return c.ExportAgent(ctx, a.ID, e.stdout)
	}
	if _, err := os.Stat(out); err == nil && !a.Force {
		return usage(fmt.Errorf("%s exists: pick another --output, or pass --force to overwrite it", out))
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".export-*.tmp")
	if err != nil {
		return fmt.Errorf("export agent %s: %w", a.ID, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	err = c.ExportAgent(ctx, a.ID, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "exported %s to %s\n", a.ID, out)
	return nil
}

// agentsImportCmd is `holon-actors agents import`.
type agentsImportCmd struct {
	File string `arg:"" help:"An archive written by agents export (or from the trash of agents delete); - reads stdin." placeholder:"FILE"`
}

// Run sends the archive to the runtime.
func (a *agentsImportCmd) Run(ctx context.Context, e *env) error {
	var in io.Reader = stdin
	if a.File != "-" {
		f, err := os.Open(a.File)
		if errors.Is(err, os.ErrNotExist) {
			return usage(fmt.Errorf("no archive %s: give the file agents export wrote", a.File))
		}
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		in = f
	}
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := c.ImportAgent(ctx, in)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, res)
	}
	fmt.Fprintf(e.stdout, "imported %s (%d agents, %d events, %d artifacts)\n", res.AgentID, len(res.Agents), res.Events, res.Artifacts)
	return nil
}
