package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/holon-actors/holon-actors/actors"
)

// runFlag is one flag of `run` with the value a command line gave it.
type runFlag struct {
	name       string
	value      string // as `--name=value` takes it
	set        bool   // the value is not the flag's zero value
	hasDefault bool
	atDefault  bool // the value is the flag's default
}

// notForwarded are the flags of `run` that daemon start does not put on
// the child's command line: the token travels in its environment.
var notForwarded = map[string]bool{"token": true}

// operational are the flags that change how the runtime runs, not what it
// is: they do not count in its configuration fingerprint.
var operational = map[string]bool{"shutdown-timeout": true, "log-level": true, "log-file": true}

// runFlags lists the flags of `run` with their values in c, read from the
// kong model of runCmd, so a flag added to runCmd is listed without edits.
func (c *runCmd) runFlags() []runFlag {
	holder := struct {
		Run runCmd `cmd:""`
	}{Run: *c}
	k, err := kong.New(&holder)
	if err != nil {
		panic(err) // the runCmd tags are wrong: a programmer error
	}
	var out []runFlag
	for _, f := range k.Model.Children[0].Flags {
		if f.Name == "help" {
			continue
		}
		v := formatFlag(f.Target, f.Tag.Sep)
		out = append(out, runFlag{name: f.Name, value: v, set: !f.Target.IsZero(),
			hasDefault: f.HasDefault, atDefault: f.HasDefault && v == canonicalDefault(f.Target, f.Default)})
	}
	return out
}

// forwardArgs are c's flags as `run` arguments: every flag set or with a
// default, so the child runs as configured whatever its environment says.
func (c *runCmd) forwardArgs() []string {
	var args []string
	for _, f := range c.runFlags() {
		switch {
		case notForwarded[f.name]:
		case !f.set && !f.hasDefault:
		default:
			args = append(args, "--"+f.name+"="+f.value)
		}
	}
	return args
}

// formatFlag writes v as a kong flag value.
// canonicalDefault is a flag's default as formatFlag prints its value, so
// a duration defaulting to "6h" is at its default when it prints "6h0m0s".
func canonicalDefault(target reflect.Value, def string) string {
	if _, ok := target.Interface().(time.Duration); ok {
		if d, err := time.ParseDuration(def); err == nil {
			return d.String()
		}
	}
	return def
}

func formatFlag(v reflect.Value, sep rune) string {
	if d, ok := v.Interface().(time.Duration); ok {
		return d.String()
	}
	if v.Kind() == reflect.Slice {
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = formatFlag(v.Index(i), sep)
		}
		return strings.Join(parts, string(sep))
	}
	return fmt.Sprint(v.Interface())
}

// configFingerprint hashes the configuration flags (all but the
// operational ones); secrets count only through a hash of their value.
func configFingerprint(flags []runFlag) string {
	var parts []string
	for _, f := range flags {
		switch {
		case operational[f.name]:
		case notForwarded[f.name]:
			tok := sha256.Sum256([]byte(f.value))
			parts = append(parts, f.name, hex.EncodeToString(tok[:8]))
		default:
			parts = append(parts, f.name, f.value)
		}
	}
	b, _ := json.Marshal(parts)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// checkDefaultAgent refuses a --default-agent outside the agent id rule
// before anything starts.
func (c *runCmd) checkDefaultAgent() error {
	if err := actors.ValidateAgentID(c.DefaultAgent); err != nil {
		return usage(fmt.Errorf("--default-agent: %w", err))
	}
	return nil
}
