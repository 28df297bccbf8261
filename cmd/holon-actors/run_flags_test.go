package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
)

// parseCLI parses args into a fresh cli, failing the test on an error.
func parseCLI(t *testing.T, args []string) *cli {
	t.Helper()
	var c cli
	k, err := kong.New(&c, kong.Exit(func(int) { t.Fatalf("kong exited on %q", args) }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return &c
}

// sampleValue is a value for flag f unlike its default, by its kong type.
func sampleValue(t *testing.T, f *kong.Flag) string {
	t.Helper()
	if f.Enum != "" {
		for _, v := range f.EnumSlice() {
			if v != f.Default {
				return v
			}
		}
	}
	switch f.Tag.Type {
	case "existingdir":
		return t.TempDir()
	case "path", "existingfile":
		return filepath.Join(t.TempDir(), f.Name)
	}
	if f.Target.Type() == reflect.TypeFor[time.Duration]() {
		return "3m7s"
	}
	switch f.Target.Kind() {
	case reflect.String:
		return "value of " + f.Name
	case reflect.Bool:
		return "true"
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		return "7"
	case reflect.Slice:
		return "a-" + f.Name + ",b-" + f.Name
	}
	t.Fatalf("no sample value for --%s of type %s: teach sampleValue", f.Name, f.Target.Type())
	return ""
}

// TestDaemonStartForwardsEveryRunFlag: every flag of `run`, enumerated
// from the kong model, set on `daemon start` arrives in the child's
// arguments with its value; the token alone travels in the environment.
func TestDaemonStartForwardsEveryRunFlag(t *testing.T) {
	var probe cli
	k, err := kong.New(&probe)
	if err != nil {
		t.Fatal(err)
	}
	var runNode *kong.Node
	for _, n := range k.Model.Children {
		if n.Name == "run" {
			runNode = n
		}
	}
	if runNode == nil {
		t.Fatal("no run command in the model")
	}
	args := []string{"daemon", "start"}
	token := ""
	for _, f := range runNode.Flags {
		if f.Name == "help" {
			continue
		}
		v := sampleValue(t, f)
		if f.Name == "token" {
			token = v
		}
		args = append(args, "--"+f.Name+"="+v)
	}
	parent := parseCLI(t, args)
	start := parent.Daemon.Start
	childArgs := start.childArgs("/home/of/test")
	child := parseCLI(t, childArgs)
	if child.Home != "/home/of/test" {
		t.Errorf("child home = %q", child.Home)
	}
	want, got := reflect.ValueOf(start.runCmd), reflect.ValueOf(child.Run)
	for i := range want.NumField() {
		name := want.Type().Field(i).Name
		if !want.Type().Field(i).IsExported() { // state of a running command, not a flag
			continue
		}
		if name == "Token" {
			if got.Field(i).String() != "" {
				t.Errorf("the token reached the child's arguments")
			}
			continue
		}
		if !reflect.DeepEqual(want.Field(i).Interface(), got.Field(i).Interface()) {
			t.Errorf("%s: parent %v, child %v (child args %q)", name, want.Field(i), got.Field(i), childArgs)
		}
	}
	if token == "" || slices.ContainsFunc(childArgs, func(a string) bool { return strings.Contains(a, token) }) {
		t.Errorf("token %q in the child's arguments %q", token, childArgs)
	}
}

// TestConfigFingerprintCoversEveryConfigFlag: changing any flag but the
// operational ones changes the fingerprint, so daemon start refuses to
// call a runtime started otherwise "already running".
func TestConfigFingerprintCoversEveryConfigFlag(t *testing.T) {
	unsetEnv(t, "HOLON_AGENTS_DIR") // TestMain points the runtimes it starts at a scratch agents directory
	base := parseCLI(t, []string{"run"}).Run
	var probe cli
	k, err := kong.New(&probe)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range k.Model.Children {
		if n.Name != "run" {
			continue
		}
		for _, f := range n.Flags {
			if f.Name == "help" {
				continue
			}
			changed := parseCLI(t, []string{"run", "--" + f.Name + "=" + sampleValue(t, f)}).Run
			same := changed.fingerprint() == base.fingerprint()
			if same != operational[f.Name] {
				t.Errorf("--%s: fingerprint unchanged = %v, want %v", f.Name, same, operational[f.Name])
			}
			if changed.configGiven() == operational[f.Name] {
				t.Errorf("--%s: configGiven = %v", f.Name, changed.configGiven())
			}
		}
	}
}

// unsetEnv removes variable name for the test and restores it after.
func unsetEnv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // refuses a parallel test, and restores the value
	os.Unsetenv(name)
}
